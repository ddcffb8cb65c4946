package lint

import (
	"fmt"
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

// The same for on_error (a warning: upstream loads it, and at run time a
// dangling redirect is dropped): in a grand-child imported as kid.g, the
// folded kid.g.gm fires (both engines redirect there) and the child's own
// grp.l1 can never fire; the warning names the folded spelling.
func TestImportedDottedOnErrorNamesFoldedTree(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"app.yaml":       "app: {id: top}\nroot: home\nintents: {go: {}}\nimports:\n  kid: {source: ./kid}\nstates:\n  home:\n    on:\n      go: [{target: kid}]\n",
		"kid/app.yaml":   "app: {id: kid}\nroot: ke\nintents: {go: {}}\nimports:\n  g: {source: ./g}\nstates:\n  ke:\n    on:\n      go: [{target: kid.g}]\n",
		"kid/g/app.yaml": "app: {id: g}\nroot: ge\nhosts: [host.bad]\nstates:\n  ge:\n    on_enter:\n      - {invoke: host.bad, on_error: kid.g.gm}\n      - {invoke: host.bad, on_error: grp.l1}\n  gm: {}\n  grp:\n    type: compound\n    initial: l1\n    states:\n      l1: {}\n",
	}
	for name, src := range files {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, ds := Load(filepath.Join(dir, "app.yaml"), story.Options{})
	var got []string
	for _, d := range ds {
		if d.Rule == ruleOnErrorTarget.ID || d.Rule == ruleTarget.ID {
			got = append(got, fmt.Sprintf("%d: %s", d.Line, d.Message))
		}
	}
	if len(got) != 1 || !strings.HasPrefix(got[0], "8: ") || !strings.Contains(got[0], "did you mean `kid.g.grp.l1`") {
		t.Errorf("want one on-error-target warning at line 8 naming kid.g.grp.l1, got %q", got)
	}
}
