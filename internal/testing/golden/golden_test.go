package golden

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// recorder is a testing.TB that keeps what the helper reports instead of
// failing the test that drives it.
type recorder struct {
	testing.TB
	errs  []string
	fatal bool
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}
func (r *recorder) Fatalf(format string, args ...any) {
	r.Errorf(format, args...)
	r.fatal = true
}

func TestCheckNamesFileFirstLineAndCommand(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out.golden")
	if err := os.WriteFile(path, []byte("a\nb\nc\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := &recorder{TB: t}
	check(r, path, []byte("a\nB\nc\n"), false)
	if len(r.errs) != 1 {
		t.Fatalf("want one error, got %q", r.errs)
	}
	for _, want := range []string{path + " differs from the golden at line 2", `want: "b"`, `got:  "B"`, "go test ./internal/testing/golden -run '^TestCheckNamesFileFirstLineAndCommand$' -update"} {
		if !strings.Contains(r.errs[0], want) {
			t.Errorf("message lacks %q:\n%s", want, r.errs[0])
		}
	}
	r = &recorder{TB: t}
	check(r, path, []byte("a\nb\nc\n"), false)
	if len(r.errs) != 0 {
		t.Fatalf("equal contents reported: %q", r.errs)
	}
}

func TestDiffAtTheEnd(t *testing.T) {
	for _, c := range []struct{ want, got, line string }{
		{"a\n", "a", "line 2:\nwant: \"\"\ngot:  (end of file)"},
		{"a", "a\nb", "line 2:\nwant: (end of file)\ngot:  \"b\""},
		{"", "x", "line 1:\nwant: \"\"\ngot:  \"x\""},
	} {
		if d := Diff("f", []byte(c.want), []byte(c.got)); !strings.Contains(d, c.line) {
			t.Errorf("Diff(%q, %q) = %q, want it to contain %q", c.want, c.got, d, c.line)
		}
	}
}

func TestMissingGoldenSaysHowToWriteIt(t *testing.T) {
	r := &recorder{TB: t}
	path := filepath.Join(t.TempDir(), "none.golden")
	check(r, path, []byte("x"), false)
	if !r.fatal || len(r.errs) != 1 || !strings.Contains(r.errs[0], path) || !strings.Contains(r.errs[0], "-update") {
		t.Fatalf("got %q (fatal %v)", r.errs, r.fatal)
	}
}

// Under -update the golden is replaced whole, its folder made, and no
// temporary file is left beside it.
func TestUpdateWritesAtomically(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "sub", "deeper", "out.golden")
	r := &recorder{TB: t}
	check(r, path, []byte("first\n"), true)
	check(r, path, []byte("second\n"), true)
	if len(r.errs) != 0 {
		t.Fatal(r.errs)
	}
	data, err := os.ReadFile(path)
	if err != nil || string(data) != "second\n" {
		t.Fatalf("%q %v", data, err)
	}
	ents, err := os.ReadDir(filepath.Dir(path))
	if err != nil || len(ents) != 1 {
		t.Fatalf("folder holds %v (%v), want only the golden", ents, err)
	}
	check(r, path, []byte("second\n"), false)
	if len(r.errs) != 0 {
		t.Fatal(r.errs)
	}
}

// A folder that cannot be written fails the test with the path, leaving
// the old golden as it was.
func TestUpdateFailureKeepsOldGolden(t *testing.T) {
	// A file where the folder should be fails for every user (root
	// writes into read-only folders).
	dir := t.TempDir()
	blocker := filepath.Join(dir, "file")
	if err := os.WriteFile(blocker, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := &recorder{TB: t}
	check(r, filepath.Join(blocker, "out.golden"), []byte("x"), true)
	if !r.fatal || !strings.Contains(r.errs[0], blocker) {
		t.Fatalf("got %q", r.errs)
	}
	if data, _ := os.ReadFile(blocker); string(data) != "old" {
		t.Fatalf("blocker changed: %q", data)
	}
}
