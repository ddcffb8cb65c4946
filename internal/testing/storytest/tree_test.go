package storytest

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

func TestWriteTreeThenCopyTree(t *testing.T) {
	files := map[string]string{"app.yaml": "root: s\n", "prompts/deep/q.md": "ask", "empty": ""}
	src := t.TempDir()
	WriteTree(t, src, files)
	dst := TempCopy(t, src)
	for name, want := range files {
		got, err := os.ReadFile(filepath.Join(dst, filepath.FromSlash(name)))
		if err != nil || string(got) != want {
			t.Errorf("%s: %q, %v; want %q", name, got, err, want)
		}
	}
}

func TestCopyTreeRefusesALink(t *testing.T) {
	src := t.TempDir()
	WriteTree(t, src, map[string]string{"a": "x"})
	if err := os.Symlink("a", filepath.Join(src, "link")); err != nil {
		t.Skip("no symlinks here:", err)
	}
	err := copyTree(src, t.TempDir())
	if !errors.Is(err, fs.ErrInvalid) {
		t.Fatalf("copying a link: %v, want fs.ErrInvalid", err)
	}
}

func TestTempTreeWritesAFreshFolder(t *testing.T) {
	a := TempTree(t, map[string]string{"x/y.md": "y"})
	b := TempTree(t, map[string]string{"z": "z"})
	if a == b {
		t.Fatal("TempTree returned the same folder twice")
	}
	if got, err := os.ReadFile(filepath.Join(a, "x", "y.md")); err != nil || string(got) != "y" {
		t.Fatalf("x/y.md: %q, %v", got, err)
	}
	if _, err := os.Stat(filepath.Join(b, "x")); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("the second tree has the first one's files: %v", err)
	}
}
