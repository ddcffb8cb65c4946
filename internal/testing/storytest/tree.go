package storytest

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// WriteTree writes files (slash-separated path relative to root -> content)
// under root, creating the folders they need.
func WriteTree(t testing.TB, root string, files map[string]string) {
	t.Helper()
	for p, c := range files {
		WriteFile(t, filepath.Join(root, filepath.FromSlash(p)), c)
	}
}

// CopyTree copies the folders and regular files below src to dst (created
// as needed); anything else (a link, a FIFO) fails the test.
func CopyTree(t testing.TB, src, dst string) {
	t.Helper()
	if err := copyTree(src, dst); err != nil {
		t.Fatal(err)
	}
}

func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		out := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(out, 0o755)
		case !d.Type().IsRegular():
			return &fs.PathError{Op: "copy", Path: p, Err: fs.ErrInvalid}
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(out, b, 0o644)
	})
}

// TempCopy copies src into a fresh t.TempDir() and returns the copy.
func TempCopy(t testing.TB, src string) string {
	t.Helper()
	dst := t.TempDir()
	CopyTree(t, src, dst)
	return dst
}

// TempTree writes files (as WriteTree) into a fresh t.TempDir() and returns
// that folder.
func TempTree(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	WriteTree(t, dir, files)
	return dir
}

// WriteFile writes content to path, creating the folders it needs.
func WriteFile(t testing.TB, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// NoMarkerAbove skips a test whose cases need a directory with no project
// marker (.git, or a .kitsoki directory) at or above dir — the temporary
// directory lies inside a checkout (TMPDIR set under a repository), so
// every story there has that checkout as its root.
func NoMarkerAbove(t testing.TB, dir string) {
	t.Helper()
	for d := filepath.Dir(filepath.Clean(dir)); ; d = filepath.Dir(d) {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			t.Skipf("%s holds .git, above the temporary directory %s: set TMPDIR outside any checkout to run the cases with no project marker", d, dir)
		}
		if fi, err := os.Stat(filepath.Join(d, ".kitsoki")); err == nil && fi.IsDir() {
			t.Skipf("%s holds .kitsoki/, above the temporary directory %s: set TMPDIR outside any project to run the cases with no project marker", d, dir)
		}
		if filepath.Dir(d) == d {
			return
		}
	}
}

// WorldChain writes a chain of n stories under a top story, each importing
// the next, each declaring keys world keys with a default and one terminal
// state, and returns the top's folder. Folding it resets keys×n(n+1)/2
// world keys (each wrapper resets every key below it): the fold's repeat
// count exactly, as nothing else repeats.
func WorldChain(t testing.TB, n, keys int) string {
	t.Helper()
	files := map[string]string{
		"app.yaml": "app: { id: top, version: 0.1.0 }\nimports:\n  n: { source: ./c0, entry: s }\nroot: s\nstates:\n  s: { terminal: true }\n",
	}
	for i := range n {
		var b strings.Builder
		fmt.Fprintf(&b, "app: { id: c%d, version: 0.1.0 }\n", i)
		if i < n-1 {
			fmt.Fprintf(&b, "imports:\n  n: { source: ../c%d, entry: s }\n", i+1)
		}
		b.WriteString("world:\n")
		for j := range keys {
			fmt.Fprintf(&b, "  k%d: { type: int, default: 0 }\n", j)
		}
		b.WriteString("root: s\nstates:\n  s: { terminal: true }\n")
		files[fmt.Sprintf("c%d/app.yaml", i)] = b.String()
	}
	return TempTree(t, files)
}
