package lint

import (
	"strings"
	"testing"

	"kitsoki/pkg/story"
)

// hunt79: an imported child's bare on_error, dispatched at the exit its
// on_enter hop took, climbs from where the importer maps the exit. Mapped
// to the importer's g.fin, the folded "../x" names the importer's g.x, as
// the existing engine's run rests there (`GX`, /tmp/lintgaps33/h79/a):
// validate warns on the child's line and counts g.x reached, while the
// importer's x stays unreachable; absolute, kid.x means the child's x.
func TestImportedExitClimbNamesImporterState(t *testing.T) {
	kid := "app: {id: kid}\nhosts: [host.bad]\nintents: {go: {}, ping: {}}\nroot: s0\nexits: {done: {}}\nstates:\n" +
		"  s0:\n    on: {go: [{target: c}]}\n" +
		"  c:\n    on_enter:\n      - emit_intent: ping\n      - {invoke: host.bad, on_error: ON}\n" + // line 12
		"    on: {ping: [{target: \"@exit:done\"}]}\n  x: {}\n"
	parent := "app: {id: par}\nhosts: [host.bad]\nintents: {enter: {}}\nroot: home\nimports:\n  kid:\n    source: ./kid\n    exits: {done: {to: g.fin}}\nstates:\n" +
		"  home:\n    on: {enter: [{target: kid}]}\n  g:\n    type: compound\n    initial: fin\n    states:\n      fin: {}\n      x: {}\n  x: {}\n"
	for _, tc := range []struct{ on, want string }{
		{"x", "names the importing story's `g.x`, not this story's `kid.x`"},
		{"nx", "names no state there"},
		{"kid.x", ""},
	} {
		dir := t.TempDir()
		write(t, dir, "app.yaml", parent)
		write(t, dir, "kid/app.yaml", strings.Replace(kid, "ON", tc.on, 1))
		_, ds := Load(dir, story.Options{})
		var warned []string
		unreachable := map[string]bool{}
		for _, d := range ds {
			switch d.Rule {
			case ruleOnErrorTarget.ID:
				warned = append(warned, d.Message)
			case ruleUnreachable.ID:
				unreachable[strings.Split(d.Message, "\"")[1]] = true
			}
		}
		if tc.want == "" && len(warned) != 0 || tc.want != "" && (len(warned) != 1 || !strings.Contains(warned[0], tc.want)) {
			t.Errorf("on_error %s: want %q, got %q", tc.on, tc.want, warned)
		}
		if reached := tc.on == "x"; unreachable["g.x"] == reached || !unreachable["x"] {
			t.Errorf("on_error %s: unreachable %v, want g.x reached: %v, x unreachable", tc.on, unreachable, reached)
		}
	}
}
