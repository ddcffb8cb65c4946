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
