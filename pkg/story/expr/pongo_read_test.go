package expr

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// secretTree is a template root dir holding in.pongo and a directory
// beside it holding secret.txt, whose text is the canary.
func secretTree(t *testing.T) (dir, secret string) {
	t.Helper()
	base := t.TempDir()
	dir = filepath.Join(base, "story")
	secret = filepath.Join(base, "outside", "secret.txt")
	for p, c := range map[string]string{filepath.Join(dir, "in.pongo"): "IN", secret: "SECRET-CANARY"} {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir, secret
}

// TestTemplateReadRechecksAtOpen: a template the loader accepted by path
// (Abs) and that a symlink leading out replaces before pongo2 reads it (a
// story's host.run racing a render) is refused by the read itself, not
// read. Before, Get read it by path with safefile.ReadFile and returned
// the secret.
func TestTemplateReadRechecksAtOpen(t *testing.T) {
	dir, secret := secretTree(t)
	l := NewPongoLoader(dir)
	fl := fileLoader{l}
	p := fl.Abs("", "in.pongo")
	if p != filepath.Join(dir, "in.pongo") {
		t.Fatalf("Abs = %q", p)
	}
	if err := os.Remove(p); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(secret, p); err != nil {
		t.Fatal(err)
	}
	r, err := fl.Get(p)
	if err == nil {
		b, _ := io.ReadAll(r)
		t.Fatalf("the swapped link was read: %q", b)
	}
	if strings.Contains(err.Error(), "SECRET") || strings.Contains(err.Error(), "outside/") {
		t.Fatalf("the error tells of the target: %v", err)
	}
}

// TestCompileFileReadsThroughItsRoots: CompileFile reads a caller's file
// through the loader's roots: a view file that is an absolute link leading
// out is refused (before, it was compiled, and its text rendered), one
// leading to a file inside is read.
func TestCompileFileReadsThroughItsRoots(t *testing.T) {
	dir, secret := secretTree(t)
	views := filepath.Join(dir, "views")
	if err := os.Mkdir(views, 0o755); err != nil {
		t.Fatal(err)
	}
	for link, target := range map[string]string{"out.pongo": secret, "in.pongo": filepath.Join(dir, "in.pongo")} {
		if err := os.Symlink(target, filepath.Join(views, link)); err != nil {
			t.Fatal(err)
		}
	}
	l := NewPongoLoader(views)
	l.Confine(dir)
	if p, err := l.CompileFile(filepath.Join(views, "out.pongo")); err == nil {
		out, _ := p.Render(nil)
		t.Fatalf("a link out was compiled: %q", out)
	} else if strings.Contains(err.Error(), "SECRET") {
		t.Fatalf("the error quotes the target: %v", err)
	}
	p, err := l.CompileFile(filepath.Join(views, "in.pongo"))
	if err != nil {
		t.Fatal(err)
	}
	if out, err := p.Render(nil); err != nil || out != "IN" {
		t.Fatalf("an absolute link inside: %q %v", out, err)
	}
}
