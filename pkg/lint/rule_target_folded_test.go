package lint

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/pkg/diag"
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
// grp.l1 can never fire; the warning names the "../" chain that names it
// folded and standalone alike, and the folded spelling.
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
	if len(got) != 1 || !strings.HasPrefix(got[0], "8: ") || !strings.Contains(got[0], "did you mean `../grp/l1`? (`kid.g.grp.l1` names it too") {
		t.Errorf("want one on-error-target warning at line 8 naming ../grp/l1 and kid.g.grp.l1, got %q", got)
	}
}

// nestedKid is a child whose compound grp holds l1 (depth 1), where the
// site (an arc, a timeout, an on_error, a job's on_complete target) holds
// TARGET, and the parent importing it as kid.
func nestedKid(t *testing.T, site, target string) string {
	t.Helper()
	at := map[string]string{
		"arc":         "        on: {go: [{target: \"T\"}]}\n",
		"timeout":     "        timeout: {after: 1m, target: \"T\"}\n",
		"on_error":    "        on_enter: [{invoke: host.bad, on_error: \"T\"}]\n",
		"on_complete": "        on_enter: [{invoke: host.bad, background: true, on_complete: [{target: \"T\"}]}]\n",
	}[site]
	dir := t.TempDir()
	write(t, dir, "app.yaml", "app: {id: par}\nhosts: [host.bad]\nintents: {enter: {}}\nroot: home\nimports:\n  kid: {source: ./kid}\nstates:\n  home:\n    on: {enter: [{target: kid}]}\n")
	write(t, filepath.Join(dir, "kid"), "app.yaml", "app: {id: kid}\nhosts: [host.bad]\nintents: {go: {}, in: {}}\nroot: s0\nstates:\n"+
		"  s0:\n    on: {in: [{target: grp}]}\n  grp:\n    type: compound\n    initial: l1\n    states:\n      l1:\n"+
		strings.ReplaceAll(at, "T", target)+
		"      l2: {}\n      sub:\n        type: compound\n        initial: m\n        states:\n          m: {}\n  top: {}\n")
	return dir
}

// In an imported child, a bare name names the child's top-level state at
// any depth (the fold writes it as a "../" chain) and a dotted one the
// importing story's tree, so the fix for a state of a compound is a "../"
// chain (hunt87: the hint said "a bare sibling name"). Each hint here is
// one that the existing engine loads and lands on (kid.grp.l2,
// kid.grp.sub.m; /tmp/lintgaps33/h87): the test writes it in and checks
// that it loads clean of target findings. A timeout.target is looked up as
// written, so its hint is the folded path (a "../" one never fires).
func TestImportedNestedTargetHintsLoad(t *testing.T) {
	for _, tc := range []struct{ site, target, hint string }{
		{"arc", "grp.l2", "../l2"}, {"arc", "grp/l2", "../l2"}, {"arc", "l2", "../l2"},
		{"arc", "sub.m", "../sub/m"}, {"arc", "sub", "../sub"},
		{"timeout", "grp.l2", "kid.grp.l2"}, {"timeout", "l2", "kid.grp.l2"},
		{"on_complete", "grp.l2", "../l2"}, {"on_complete", "sub.m", "../sub/m"}, {"on_complete", "l2", "../l2"},
		{"on_error", "grp.l2", "../l2"}, {"on_error", "l2", "../l2"}, {"on_error", "sub.m", "../sub/m"},
		{"on_error", "../../../top", "top"},
	} {
		t.Run(tc.site+"/"+tc.target, func(t *testing.T) {
			_, ds := Load(nestedKid(t, tc.site, tc.target), story.Options{})
			var msgs []string
			for _, d := range ds {
				if d.Rule == ruleTarget.ID || d.Rule == ruleOnErrorTarget.ID {
					msgs = append(msgs, d.Message)
				}
			}
			if len(msgs) != 1 || !strings.Contains(msgs[0], "did you mean `"+tc.hint+"`?") || strings.Contains(msgs[0], "sibling") {
				t.Fatalf("want one finding hinting %q, got %q", tc.hint, msgs)
			}
			_, ds = Load(nestedKid(t, tc.site, tc.hint), story.Options{})
			for _, d := range ds {
				if d.Rule == ruleTarget.ID || d.Rule == ruleOnErrorTarget.ID {
					t.Errorf("the hint %q does not load clean: %s", tc.hint, d.Message)
				}
			}
		})
	}
}

// An imported child's on_error "../" chain with more segments than its
// state's depth plus one is refused at load by the existing engine
// (`imports.kid: target "../../../top" walks above the child's namespace
// (depth 1, 3 `..` segments)`, /tmp/lintgaps33/h87), as pkg/fold refuses
// it for run and test; standalone the same chain loads and stays at the top
// (conformance on-error-climb-above-top), a warning.
func TestImportedOnErrorAboveChildRefused(t *testing.T) {
	dir := nestedKid(t, "on_error", "../../../top")
	_, ds := Load(dir, story.Options{})
	if errs, _ := diag.Count(ds); errs != 1 {
		t.Fatalf("want one error, got %s", render(ds))
	}
	_, ds = Load(filepath.Join(dir, "kid"), story.Options{})
	if errs, _ := diag.Count(ds); errs != 0 {
		t.Errorf("standalone: want no error, got %s", render(ds))
	}
}

// A bare timeout.target in an imported child is folded to a "../" chain,
// which a timeout looks up as written: the existing engine logs
// `fireTimeout: target state "../../top" not found` and the session stays
// (/tmp/lintgaps33/h87/to_top); kid.top fires. Standalone, top fires.
func TestImportedBareTimeoutTargetNeverFires(t *testing.T) {
	for target, want := range map[string]bool{"top": true, "kid.top": false, "nope": false} {
		dir := nestedKid(t, "timeout", target)
		_, ds := Load(dir, story.Options{})
		var got []string
		for _, d := range ds {
			if d.Rule == story.RuleState.ID && strings.Contains(d.Message, "never fires") {
				got = append(got, d.Message)
			}
		}
		if want != (len(got) == 1 && strings.Contains(got[0], "write the folded path `kid.top`")) || !want && len(got) != 0 {
			t.Errorf("timeout.target %s: want warned %v, got %q", target, want, got)
		}
		if target == "top" {
			_, ds = Load(filepath.Join(dir, "kid"), story.Options{})
			for _, d := range ds {
				if strings.Contains(d.Message, "never fires") {
					t.Errorf("standalone: %s", d.Message)
				}
			}
		}
	}
}
