package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// openRoot opens dir as an os.Root closed with the test.
func openRoot(t *testing.T, dir string) *os.Root {
	t.Helper()
	r, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

// symlink makes link name target, skipping where links cannot be made.
func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		if runtime.GOOS == "windows" {
			t.Skipf("symlink: %v", err)
		}
		t.Fatal(err)
	}
}

// wantEmpty fails when dir holds anything.
func wantEmpty(t *testing.T, dir string) {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		t.Errorf("%s was written outside the root", filepath.Join(dir, e.Name()))
	}
}

func wantEscape(t *testing.T, err error) {
	t.Helper()
	if err == nil || !strings.Contains(err.Error(), "path escapes from parent") {
		t.Fatalf("err = %v, want os.Root's refusal of a path leading out", err)
	}
}

func TestWriteInReplacesWholeInsideTheRoot(t *testing.T) {
	dir := t.TempDir()
	r := openRoot(t, dir)
	for _, content := range []string{"first", "second"} {
		if err := WriteIn(r, filepath.Join("sub", "deeper", "report.md"), []byte(content), 0o640); err != nil {
			t.Fatal(err)
		}
	}
	p := filepath.Join(dir, "sub", "deeper", "report.md")
	if got, err := os.ReadFile(p); err != nil || string(got) != "second" {
		t.Fatalf("read back %q, %v; want second", got, err)
	}
	if runtime.GOOS != "windows" {
		if st, _ := os.Stat(p); st.Mode().Perm() != 0o640 {
			t.Errorf("mode %v, want 0640", st.Mode().Perm())
		}
	}
	assertNoTemp(t, filepath.Dir(p))
	err := WriteIn(r, "sub", []byte("x"), 0o644)
	if err == nil || err.Error() != "is a directory; name a file inside it" {
		t.Errorf("a directory at the name: err = %v", err)
	}
}

// A link planted before the write, in the parent directory or deeper up
// the way, fails the write; nothing is created where it leads.
func TestWriteInRefusesALinkOut(t *testing.T) {
	for _, name := range []string{"out/report.md", "out/made/report.md", "in/out/report.md"} {
		t.Run(name, func(t *testing.T) {
			dir, outside := t.TempDir(), t.TempDir()
			if err := os.Mkdir(filepath.Join(dir, "in"), 0o755); err != nil {
				t.Fatal(err)
			}
			symlink(t, outside, filepath.Join(dir, "out"))
			symlink(t, outside, filepath.Join(dir, "in", "out"))
			wantEscape(t, WriteIn(openRoot(t, dir), name, []byte("x"), 0o644))
			wantEmpty(t, outside)
		})
	}
}

// A link to a file outside at the name itself is replaced by the new
// file; the file it named is left as it was.
func TestWriteInReplacesALinkAtTheName(t *testing.T) {
	dir, outside := t.TempDir(), t.TempDir()
	victim := filepath.Join(outside, "victim")
	if err := os.WriteFile(victim, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	symlink(t, victim, filepath.Join(dir, "report.md"))
	if err := WriteIn(openRoot(t, dir), "report.md", []byte("new"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(victim); string(got) != "keep" {
		t.Errorf("the file outside now holds %q", got)
	}
	if st, err := os.Lstat(filepath.Join(dir, "report.md")); err != nil || !st.Mode().IsRegular() {
		t.Errorf("the name is not the new regular file: %v %v", st, err)
	}
}

// The directory swapped for a link out while the write runs (after the
// temporary file is made, before it is renamed): the rename fails and
// nothing lands outside; the write through the path (Write) that the
// root replaces would have followed the link.
func TestWriteInDirectorySwappedMidWrite(t *testing.T) {
	dir, outside := t.TempDir(), t.TempDir()
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	swap := func(w io.Writer) error {
		if err := os.Rename(sub, sub+".moved"); err != nil {
			return err
		}
		symlink(t, outside, sub)
		_, err := w.Write([]byte("x"))
		return err
	}
	wantEscape(t, WriteFuncIn(openRoot(t, dir), "sub/report.md", 0o644, swap))
	wantEmpty(t, outside)
}

// WriteBelow writes a path inside its directory through a root: a
// directory on the way that is a link out of it (a checkout's reports/
// committed as a link to a directory elsewhere) fails the write, nothing
// lands outside; a path outside the directory is written as Write does.
func TestWriteBelowRefusesALinkOut(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	if err := os.Symlink(outside, filepath.Join(root, "reports")); err != nil {
		t.Skipf("no symlinks here: %v", err)
	}
	err := WriteBelow(root, filepath.Join(root, "reports", "r.json"), []byte("{}"), 0o644)
	if !errors.Is(err, ErrLinkOut) {
		t.Errorf("WriteBelow through reports/: %v; want ErrLinkOut", err)
	}
	if ents, _ := os.ReadDir(outside); len(ents) != 0 {
		t.Errorf("%d entries written outside", len(ents))
	}
	if err := WriteBelow(root, filepath.Join(root, "sub", "r.json"), []byte("in"), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "sub", "r.json")); string(b) != "in" {
		t.Errorf("inside: %q", b)
	}
	elsewhere := filepath.Join(outside, "r.json")
	if err := WriteBelow(root, elsewhere, []byte("out"), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(elsewhere); string(b) != "out" {
		t.Errorf("elsewhere: %q", b)
	}
}
