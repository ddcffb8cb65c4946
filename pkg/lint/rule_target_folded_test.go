package lint

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/pkg/story"
)

// A dotted target inside an imported child names the folded tree, as
// upstream checks a child after folding it (story-runtime.md §6.2): the
// child's own "grp.l2" is refused (upstream: `transition target "grp.l2"
// (resolved: "grp.l2") does not exist`), its folded "kid.grp.l2" and
// "kid/entry" load, and a bare name or ../ path keeps naming the child's
// own states. Loaded standalone, the child's "grp.l2" is its own state.
func TestImportedDottedTargetNamesFoldedTree(t *testing.T) {
	dir := t.TempDir()
	child := "app: {id: kid}\nroot: entry\nintents: {a: {}, b: {}, c: {}, d: {}, e: {}}\nstates:\n" +
		"  entry:\n    on:\n" +
		"      a: [{target: grp.l2}]\n" + // line 7: the child's own path, not folded
		"      b: [{target: kid.grp.l2}]\n" +
		"      c: [{target: kid/entry}]\n" +
		"      d: [{target: grp}]\n" +
		"      e: [{target: kid.nowhere}]\n" + // line 11
		"  grp:\n    type: compound\n    initial: l1\n    timeout: {after: 1m, target: kid.grp.l1}\n" +
		"    states:\n      l1: {}\n      l2:\n        timeout: {after: 1m, target: grp.l1}\n" // line 19
	parent := "app: {id: p}\nroot: home\nintents: {go: {}}\nimports:\n  kid: {source: ./kid}\nstates:\n  home:\n    on:\n      go: [{target: kid}]\n"
	for name, src := range map[string]string{"kid/app.yaml": child, "app.yaml": parent} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, ds := Load(filepath.Join(dir, "app.yaml"), story.Options{})
	lines := map[int]bool{}
	for _, d := range ds {
		if d.Rule == ruleTarget.ID && strings.HasSuffix(d.File, filepath.Join("kid", "app.yaml")) {
			lines[d.Line] = true
			if !strings.Contains(d.Message, "this story is imported") {
				t.Errorf("message names no fix: %s", d.Message)
			}
		}
	}
	if len(lines) != 3 || !lines[7] || !lines[11] || !lines[19] {
		t.Errorf("target errors at lines %v, want 7, 11 and 19: %s", lines, render(ds))
	}
	_, ds = Load(filepath.Join(dir, "kid", "app.yaml"), story.Options{})
	for _, d := range ds {
		if d.Rule == ruleTarget.ID && (d.Line == 7 || d.Line == 19) {
			t.Errorf("standalone child: grp.l2 / grp.l1 refused: %s", d.Message)
		}
	}
}
