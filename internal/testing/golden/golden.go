package golden

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/modroot"
)

var update = flag.Bool("update", false, "rewrite the golden files the tests compare with (review the diff, then commit it)")

// Update reports whether the test binary runs with -update: a test whose
// golden is more than one file (a trace and its sidecars) rewrites them
// itself, then compares as usual.
func Update() bool { return *update }

// Check compares got with the file at path (relative to the package
// folder, as go test runs), or rewrites it atomically (making its folder)
// under -update. A difference fails the test with the file, the first
// differing line and the command that rewrites it.
func Check(t testing.TB, path string, got []byte) {
	t.Helper()
	check(t, path, got, *update)
}

// CheckString is Check for text.
func CheckString(t testing.TB, path, got string) {
	t.Helper()
	check(t, path, []byte(got), *update)
}

func check(t testing.TB, path string, got []byte, rewrite bool) {
	t.Helper()
	if rewrite {
		if err := write(path, got); err != nil {
			t.Fatalf("golden %s: %v", path, err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("golden %s: %v (%s writes it)", path, err, Command(t))
		return
	}
	if msg := Diff(path, want, got); msg != "" {
		t.Errorf("%s\nafter review, %s rewrites it", msg, Command(t))
	}
}

// Diff is "" when want and got are equal, else a message naming path, the
// first line that differs and both versions of it.
func Diff(path string, want, got []byte) string {
	if bytes.Equal(want, got) {
		return ""
	}
	wl, gl := strings.Split(string(want), "\n"), strings.Split(string(got), "\n")
	for i := 0; ; i++ {
		w, wok := line(wl, i)
		g, gok := line(gl, i)
		if w != g || wok != gok {
			return fmt.Sprintf("%s differs from the golden at line %d:\nwant: %s\ngot:  %s", path, i+1, w, g)
		}
	}
}

// line is the i-th line, quoted, or "(end of file)" past the last one.
func line(ls []string, i int) (string, bool) {
	if i >= len(ls) {
		return "(end of file)", false
	}
	return fmt.Sprintf("%q", ls[i]), true
}

// Command is the go test command that rewrites the goldens of t's
// top-level test: go test ./<package folder> -run '^TestX$' -update.
func Command(t testing.TB) string {
	top, _, _ := strings.Cut(t.Name(), "/")
	return fmt.Sprintf("go test ./%s -run '^%s$' -update", packageDir(), top)
}

// packageDir is the working folder (the package go test runs in) relative
// to the module root, slash-separated; "." when it cannot be found.
func packageDir() string {
	root, wd, ok := modroot.Dir()
	if !ok {
		return "."
	}
	rel, err := filepath.Rel(root, wd)
	if err != nil {
		return "."
	}
	return filepath.ToSlash(rel)
}

// write replaces path with data through a temporary file in the same
// folder, so a reader never sees half a golden.
func write(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	_, werr := f.Write(data)
	cerr := f.Close()
	if werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Chmod(f.Name(), 0o644)
	}
	if werr == nil {
		werr = os.Rename(f.Name(), path)
	}
	if werr != nil {
		os.Remove(f.Name())
	}
	return werr
}
