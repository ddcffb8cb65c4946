package lsp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
)

// A file swapped for a symbolic link leading out of the workspace between
// the server choosing the root it reads through and the read itself is
// refused by that read: the secret outside never becomes the text of a
// document (the hook swaps at exactly that point, so the test needs no
// timing).
func TestTextRefusesFileSwappedForLinkOut(t *testing.T) {
	base := t.TempDir()
	ws := filepath.Join(base, "repo")
	secret := filepath.Join(base, "home", "id_rsa")
	storytest.WriteTree(t, base, map[string]string{
		"home/id_rsa":   canary + "\n",
		"repo/app.yaml": "app: {name: x}\n",
	})
	app := filepath.Join(ws, "app.yaml")
	s := New(Options{Root: ws})
	s.setRoots(nil)
	if text, ok := s.text(app); !ok || !strings.Contains(text, "app:") {
		t.Fatalf("the file inside is not read: %q %v", text, ok)
	}
	swaps := 0
	s.beforeRead = func(p string) {
		if p != app {
			return
		}
		swaps++
		if err := os.Remove(app); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(secret, app); err != nil {
			t.Fatal(err)
		}
	}
	text, ok := s.text(app)
	if swaps != 1 {
		t.Fatalf("the hook ran %d times; want once", swaps)
	}
	if ok || strings.Contains(text, canary) {
		t.Fatalf("the text of a file swapped for a link out: %q %v; want it refused", text, ok)
	}
}
