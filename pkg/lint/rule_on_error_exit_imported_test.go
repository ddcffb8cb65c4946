package lint

import (
	"strings"
	"testing"

	"kitsoki/pkg/diag"
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
		ds := loadImported(t, parent, strings.Replace(kid, "ON", tc.on, 1))
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

// lintgaps37: the emits of a leaf's on_enter hop before any of its calls
// is dispatched, so a call written before the emit that takes the exit
// climbs from the exit too (/tmp/lintgaps37/p1: upstream rests on the
// importer's x); a templated emit that renders such a name does where it
// renders it (conformance swallowed-pass-exit-origin-imported: aex's
// "{{ world.last_error != ” ? 'ping' : ” }}" once an earlier call
// failed). Neither was warned, and the fix named ("make the call before
// the emit_intent") changes nothing.
func TestImportedExitClimbCallBeforeEmit(t *testing.T) {
	parent := "app: {id: par}\nhosts: [host.bad]\nintents: {enter: {}}\nroot: idle\nexits: {done: {}}\nimports:\n  kid:\n    source: ./kid\n    exits: {done: {to: \"@exit:done\"}}\nstates:\n" +
		"  idle:\n    on: {enter: [{target: kid}]}\n  x: {}\n"
	for _, tc := range []struct{ emit, want string }{
		{"ping", `emit_intent "ping" takes @exit:done before any call of the state is dispatched`},
		{`"{{ world.last_error != '' ? 'ping' : '' }}"`, `where it renders "ping", takes @exit:done`},
	} {
		kid := "app: {id: kid}\nhosts: [host.bad]\nintents: {go: {}, ping: {}}\nroot: s0\nexits: {done: {}}\nstates:\n" +
			"  s0:\n    on: {go: [{target: a}]}\n" +
			"  a:\n    on_enter:\n      - {invoke: host.bad, on_error: x}\n      - emit_intent: " + tc.emit + "\n" +
			"    on: {ping: [{target: \"@exit:done\"}]}\n  x: {}\n"
		ds := loadImported(t, parent, kid)
		var warned []string
		for _, d := range ds {
			if d.Rule == ruleOnErrorTarget.ID {
				warned = append(warned, d.Message)
			}
		}
		if len(warned) != 1 || !strings.Contains(warned[0], tc.want) || !strings.Contains(warned[0], "names the importing story's `x`, not this story's `kid.x`") ||
			strings.Contains(warned[0], "make the call before") {
			t.Errorf("emit %s: want one warning with %q, got %q", tc.emit, tc.want, warned)
		}
	}
}

// lintgaps37: an imported child's on_error climbs, once folded, from the
// dispatch state, which can be shallower than the declaring state (a
// transition's destination) or deeper (a compound's initial leaf): kid's
// g.c arms to y whose calls fail with on_error z or ../../z land on the
// importer's z, and compound h's bare z on kid.h.z, as upstream's run
// does (/tmp/lintgaps37/p2); ../z from y, and kid.z, name kid's z. The
// child run alone names its own z for each, and validate said nothing but
// "write z" (which lands on the importer's z as well) for ../../z; the
// importer's z, reached that way, was reported unreachable.
func TestImportedOnErrorClimbsFromDispatch(t *testing.T) {
	parent := "app: {id: par}\nhosts: [host.bad]\nintents: {enter: {}}\nroot: idle\nimports:\n  kid:\n    source: ./kid\nstates:\n" +
		"  idle:\n    on: {enter: [{target: kid}]}\n  z: {}\n"
	kid := "app: {id: kid}\nhosts: [host.bad]\nintents: {go: {}, g4: {}}\nroot: g\nstates:\n" +
		"  g:\n    type: compound\n    initial: c\n    states:\n      c:\n" +
		"        on:\n          go: [{target: ../../y, effects: [{invoke: host.bad, on_error: ON}]}]\n          g4: [{target: ../../h}]\n" +
		"      z: {}\n  y: {}\n  z: {}\n" +
		"  h:\n    type: compound\n    initial: c\n    on_enter:\n      - {invoke: host.bad, on_error: z}\n    states:\n      c: {}\n      z: {}\n"
	hWarn := "on_error \"z\" is folded under this story's alias to \"../z\", and both engines climb that from the dispatch state \"kid.h.c\", so it names this story's `h.z`, not this story's `z`; name the state by its folded path (`kid.z`, under this alias only)"
	hSeen := 0
	for _, tc := range []struct{ on, want string }{
		{"z", "on_error \"z\" is folded under this story's alias to \"../../z\", and both engines climb that from the dispatch state \"kid.y\", so it names the importing story's `z`, not this story's `z`; write \"../z\""},
		{"../../z", "on_error \"../../z\" is folded under this story's alias to \"../../z\", and both engines climb that from the dispatch state \"kid.y\", so it names the importing story's `z`"},
		{"../z", ""},
		{"kid.z", ""},
	} {
		ds := loadImported(t, parent, strings.Replace(kid, "ON", tc.on, 1))
		var warned []string
		unreachable := false
		for _, d := range ds {
			unreachable = unreachable || d.Rule == ruleUnreachable.ID && strings.Contains(d.Message, `state "z" is unreachable`)
			if d.Rule == ruleOnErrorTarget.ID && !strings.Contains(d.Message, hWarn) {
				warned = append(warned, d.Message)
			} else if d.Rule == ruleOnErrorTarget.ID {
				hSeen++
			}
		}
		if tc.want == "" && len(warned) != 0 || tc.want != "" && (len(warned) != 1 || !strings.Contains(warned[0], tc.want)) {
			t.Errorf("on_error %s: want %q, got %q", tc.on, tc.want, warned)
		}
		if reached := tc.want != ""; unreachable == reached {
			t.Errorf("on_error %s: the importer's z reported unreachable: %v, want %v", tc.on, unreachable, !reached)
		}
	}
	if hSeen != 4 {
		t.Errorf("want h's warning %q each time, got it %d times", hWarn, hSeen)
	}
}

// loadImported loads the story parent importing kid (./kid) and returns
// its diagnostics.
func loadImported(t *testing.T, parent, kid string) []diag.Diagnostic {
	t.Helper()
	dir := t.TempDir()
	write(t, dir, "app.yaml", parent)
	write(t, dir, "kid/app.yaml", kid)
	_, ds := Load(dir, story.Options{})
	return ds
}
