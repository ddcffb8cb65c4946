package story

import (
	"os"
	"path/filepath"
	"testing"
)

// TestEvalFastMatchesEvalSymlinks: where the shared confiner takes its
// short cut, it finds what filepath.EvalSymlinks finds; links, missing
// files and linked directories go the long way.
func TestEvalFastMatchesEvalSymlinks(t *testing.T) {
	dir := t.TempDir()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(dir, "story", "prompts"), 0o755))
	must(os.MkdirAll(filepath.Join(dir, "elsewhere"), 0o755))
	must(os.WriteFile(filepath.Join(dir, "story", "prompts", "a.md"), []byte("a"), 0o644))
	must(os.WriteFile(filepath.Join(dir, "elsewhere", "b.md"), []byte("b"), 0o644))
	must(os.Symlink(filepath.Join(dir, "elsewhere", "b.md"), filepath.Join(dir, "story", "prompts", "link.md")))
	must(os.Symlink(filepath.Join(dir, "elsewhere"), filepath.Join(dir, "story", "linkdir")))
	c := newConfiner([]string{filepath.Join(dir, "story")})
	fast := 0
	for _, p := range []string{
		filepath.Join(dir, "story", "prompts", "a.md"),
		filepath.Join(dir, "story", "prompts", "link.md"),
		filepath.Join(dir, "story", "prompts", "missing.md"),
		filepath.Join(dir, "story", "linkdir", "b.md"),
		filepath.Join(dir, "story", "prompts"),
		filepath.Join(dir, "story", "prompts", "a.md"),
	} {
		want, werr := filepath.EvalSymlinks(p)
		got, ok := c.evalFast(p)
		if ok {
			fast++
			if werr != nil || got != want {
				t.Errorf("evalFast(%s) = %s, EvalSymlinks: %s, %v", p, got, want, werr)
			}
		}
		if c.confined(p) != Confined(p, c.roots) {
			t.Errorf("confined(%s) differs between the shared and the one-shot confiner", p)
		}
	}
	if fast < 2 {
		t.Fatalf("evalFast took its short cut %d times; the test exercises nothing", fast)
	}
	if Confined(filepath.Join(dir, "story", "prompts", "link.md"), c.roots) {
		t.Error("a link out of the roots is confined")
	}
}
