package expr

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A template reads nothing inside a .git directory, by any name, case or
// link: a story at the top of a checkout has the checkout as its template
// root, and {% include ".git/config" %} printed the job's token (kept
// there by actions/checkout) in a failing fixture's view under kitsoki
// test --sandbox.
func TestTemplatesRefuseGitDir(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".git", "config"), []byte("token canary-9d2c"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "ok.md"), []byte("fine"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(".git", filepath.Join(dir, "g")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(".git/config", filepath.Join(dir, "cfg.md")); err != nil {
		t.Fatal(err)
	}
	l := NewPongoLoader(dir)
	for _, name := range []string{".git/config", "./.git/config", "x/../.git/config", "g/config", "cfg.md", ".GIT/config"} {
		out, err := func() (string, error) {
			p, err := l.Compile(`{% include "` + name + `" %}`)
			if err != nil {
				return "", err
			}
			return p.Render(Env{})
		}()
		if strings.Contains(out, "canary") || err == nil || !strings.Contains(err.Error(), "inside a .git directory") {
			t.Errorf("include %q: %q, %v; want the .git refusal", name, out, err)
		}
	}
	if _, err := l.CompileFile(filepath.Join(dir, ".git", "config")); err == nil || !strings.Contains(err.Error(), "inside a .git directory") {
		t.Errorf("CompileFile(.git/config): %v; want the .git refusal", err)
	}
	p, err := l.Compile(`{% include "ok.md" %}`)
	if err != nil {
		t.Fatal(err)
	}
	if out, err := p.Render(Env{}); err != nil || out != "fine" {
		t.Fatalf("a story file: %q, %v", out, err)
	}
}
