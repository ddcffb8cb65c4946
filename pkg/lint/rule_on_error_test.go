package lint

import (
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

// An on_error "../" climbs from the state the turn ends in, as the engine
// does (story-runtime.md §2.4): from a compound's on_enter it climbs from
// the initial leaf, from a transition's effects from the destination. The
// reachability rule follows the same resolution.
func TestOnErrorClimbsFromDispatchState(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "app.yaml", `app: {id: oe}
root: lobby
hosts: [host.run]
intents: {go: {}, go2: {}}
states:
  lobby:
    on:
      go: [{target: comp}]
      go2:
        - target: deep.leaf
          effects:
            - {invoke: host.run, on_error: ../err}
  comp:
    type: compound
    initial: inner
    on_enter:
      - {invoke: host.run, on_error: ../err}
    states:
      inner: {}
      err: {}
  deep:
    type: compound
    initial: leaf
    states:
      leaf: {}
      err: {}
  err: {}
`)
	ds, all := loadDiags(t, dir)
	// comp.err and deep.err are reached through on_error; the top-level
	// err, which the declaring states would climb to, is not.
	if len(ds) != 1 || ds[0].Rule != ruleUnreachable.ID || !strings.Contains(ds[0].Message, `state "err" is unreachable`) {
		t.Fatalf("want only the top-level err unreachable, got:\n%s", all)
	}
}

// An on_error target with whitespace around it names no state on either
// engine (conformance on-error-untrimmed): a warning, at the on_error
// value. A templated one is never rendered (conformance
// on-error-template-literal): a warning of its own; a plain one is not
// reported.
func TestOnErrorUntrimmedWarns(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "app.yaml", `app: {id: oe}
root: a
hosts: [host.run]
intents: {go: {}}
states:
  a:
    on_enter:
      - {invoke: host.run, on_error: " err"}
      - {invoke: host.run, on_error: "{{ 'err' }} "}
      - {invoke: host.run, on_error: err}
    on:
      go: [{target: err}]
  err: {}
`)
	_, ds := Load(dir, story.Options{})
	var got []diag.Diagnostic
	for _, d := range ds {
		if d.Rule == ruleOnErrorTarget.ID {
			got = append(got, d)
		}
	}
	if len(got) != 2 || !strings.Contains(got[0].Message, `on_error " err" names no state as written`) || got[0].Line != 8 || got[0].Severity != diag.Warning ||
		!strings.Contains(got[1].Message, `on_error "{{ 'err' }}" is never rendered`) || got[1].Line != 9 || got[1].Severity != diag.Warning {
		t.Fatalf("want on-error-target warnings at lines 8 and 9: %v", ds)
	}
}

// An on_error "@exit:NAME" names no state in a story run on its own,
// declared exit or not (conformance on-error-exit-undeclared,
// on-error-exit-declared): a warning, not the [exits] error. In an
// imported story the fold maps it to the import's exits.NAME.to: no
// warning for a state, one when that is the root story's own @exit:.
func TestOnErrorExit(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "app.yaml", `app: {id: oe}
root: s
hosts: [host.run]
intents: {go: {}, kin: {}, kin2: {}}
exits:
  x: {}
imports:
  kid: {source: ./kid, exits: {done: {to: "@exit:x"}}}
  kid2: {source: ./kid2, exits: {done: {to: s}}}
states:
  s:
    on:
      go: [{target: s, effects: [{invoke: host.run, on_error: "@exit:x"}]}]
      kin: [{target: kid}]
      kin2: [{target: kid2}]
`)
	child := `app: {id: KID}
root: a
exits:
  done: {}
intents: {kgo: {}}
states:
  a:
    on:
      kgo: [{target: a, effects: [{invoke: host.run, on_error: "@exit:done"}]}]
`
	write(t, dir, "kid/app.yaml", strings.Replace(child, "KID", "kid", 1))
	write(t, dir, "kid2/app.yaml", strings.Replace(child, "KID", "kid2", 1))
	_, ds := Load(dir, story.Options{})
	var got []string
	for _, d := range ds {
		if d.Severity == diag.Error {
			t.Errorf("error: %s", d)
		}
		if d.Rule == ruleOnErrorTarget.ID {
			got = append(got, d.String())
		}
	}
	if len(got) != 2 || !strings.Contains(got[0]+got[1], `state "s" intent "go" effects[0]: on_error "@exit:x" names no state`) ||
		!strings.Contains(got[0]+got[1], `on_error "@exit:done" is mapped by the importing story's exits to "@exit:x"`) || strings.Contains(got[0]+got[1], "kid2") {
		t.Fatalf("want the root's and kid's on_error warnings, got:\n%s", strings.Join(got, "\n"))
	}
}

// A leaf's on_enter that takes an exit through an emit_intent dispatches
// its calls at the exit, whether the emit is written before or after the
// call (the emits hop first; /tmp/lintgaps37/p3): a "../" on_error climbs
// from __exit__NAME in both engines (conformance exit-redirect-climb). The
// warning names both readings; the reachability rule follows the exit's.
// A guarded emit, or one whose first arm is guarded, decides nothing.
func TestOnErrorClimbsFromExit(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "app.yaml", `app: {id: oe}
root: lobby
hosts: [host.run]
exits: {done: {}}
intents: {go: {}, go2: {}, go3: {}, ping: {}}
states:
  lobby:
    on:
      go: [{target: g.c}]
      go2: [{target: g.d}]
      go3: [{target: g.e}]
  g:
    type: compound
    initial: c
    states:
      c:
        on_enter:
          - emit_intent: ping
          - {invoke: host.run, on_error: ../y}
        on:
          ping: [{target: "@exit:done"}]
      d:
        on_enter:
          - {emit_intent: ping, when: "world.last_error != ''"}
          - {invoke: host.run, on_error: ../z}
        on:
          ping: [{target: "@exit:done"}]
      e:
        on_enter:
          - {invoke: host.run, on_error: ../w}
          - emit_intent: ping
        on:
          ping: [{target: "@exit:done"}]
      y: {}
      z: {}
      w: {}
  y: {}
  w: {}
`)
	ds, all := loadDiags(t, dir)
	want := []string{
		`state "g.c" on_enter[1]: on_error "../y" is dispatched at the exit: emit_intent "ping" takes @exit:done before any call of the state is dispatched, so both engines climb from "__exit__done" to "y", not from "g.c" to "g.y"`,
		`state "g.e" on_enter[0]: on_error "../w" is dispatched at the exit: emit_intent "ping" takes @exit:done before any call of the state is dispatched, so both engines climb from "__exit__done" to "w", not from "g.e" to "g.w"`,
		`state "g.y" is unreachable`,
		`state "g.w" is unreachable`,
	}
	for _, w := range want {
		if !strings.Contains(all, w) {
			t.Errorf("want %q in:\n%s", w, all)
		}
	}
	if len(ds) != len(want) {
		t.Errorf("want %d diagnostics, got:\n%s", len(want), all)
	}
}

// loadDiags loads the story in dir and returns its diagnostics, and their
// texts a line each.
func loadDiags(t *testing.T, dir string) ([]diag.Diagnostic, string) {
	t.Helper()
	_, ds := Load(dir, story.Options{})
	got := make([]string, 0, len(ds))
	for _, d := range ds {
		got = append(got, d.String())
	}
	return ds, strings.Join(got, "\n")
}

// A bare on_error inside a parallel state of an imported child is folded to
// a "../" chain: kitsoki climbs from the region's leaf, upstream from the
// encoded configuration onto a path that is not a state (hunt79's wrapped
// swallowed-disarms: upstream rested on "kid.pp#kid.pp.ra.a1|kid.c1"). A
// warning, on the child's line; the same story run on its own, or a call
// outside the parallel state, has none.
func TestOnErrorImportedParallel(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "kid/app.yaml", `app: {id: kid}
root: s0
hosts: [host.run]
intents: {go: {}}
states:
  s0:
    on_enter:
      - {invoke: host.run, on_error: c1}
    on:
      go: [{target: pp}]
  c1: {}
  pp:
    type: parallel
    states:
      ra:
        type: compound
        initial: a1
        states:
          a1:
            on_enter:
              - {invoke: host.run, on_error: c1}
      rb:
        type: compound
        initial: b1
        states:
          b1: {}
`)
	write(t, dir, "app.yaml", "app: {id: p}\nroot: home\nintents: {go: {}}\nimports:\n  kid: {source: ./kid}\nstates:\n  home:\n    on:\n      go: [{target: kid}]\n")
	var warned []int
	_, ds := Load(filepath.Join(dir, "app.yaml"), story.Options{})
	for _, d := range ds {
		if d.Rule == ruleOnErrorTarget.ID {
			warned = append(warned, d.Line)
			if !strings.Contains(d.Message, `the fold writes it as "../../../c1"`) {
				t.Errorf("message: %s", d.Message)
			}
		}
	}
	if len(warned) != 1 || warned[0] != 21 {
		t.Errorf("on-error-target at lines %v, want 21 alone: %s", warned, render(ds))
	}
	_, ds = Load(filepath.Join(dir, "kid", "app.yaml"), story.Options{})
	for _, d := range ds {
		if d.Rule == ruleOnErrorTarget.ID {
			t.Errorf("standalone child warned: %s", d)
		}
	}
}

// An on_error "../" chain that climbs above the top level from its
// dispatch state stays at the top in both engines (conformance
// on-error-climb-above-top): a warning naming the state it reaches, which
// counts as reached; one that names no state there still dangles.
func TestOnErrorClimbsAboveTop(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "app.yaml", `app: {id: oe}
root: lobby
hosts: [host.run]
intents: {go: {}, go2: {}}
states:
  lobby:
    on:
      go: [{target: c}]
      go2: [{target: d}]
  c:
    on_enter:
      - {invoke: host.run, on_error: ../../y}
  d:
    on_enter:
      - {invoke: host.run, on_error: ../../nowhere}
  y: {}
`)
	ds, all := loadDiags(t, dir)
	if len(ds) != 2 || !strings.Contains(ds[0].Message, `on_error "../../y" climbs above the top level from the dispatch state "c": both engines stay at the top and name "y"`) ||
		!strings.Contains(ds[1].Message, `on_error "../../nowhere" is broken`) {
		t.Errorf("want the climb warned and nowhere dangling, y reached; got:\n%s", all)
	}
}

// An on_error "../" whose call an unguarded emit_intent of the same
// on_enter dispatches in a parallel state it enters from outside climbs
// from the configuration's encoded path in both engines (conformance
// on-error-climb-parallel): a warning naming the path they rest on and the
// absolute spelling, also where the same chain from the calling state
// would climb above the top.
func TestOnErrorClimbsFromParallelHop(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "app.yaml", `app: {id: oe}
root: lobby
hosts: [host.run]
intents: {go: {}, go2: {}, hop: {}}
states:
  lobby:
    on:
      go: [{target: k1}]
      go2: [{target: k3}]
  k1:
    on_enter:
      - {invoke: host.run, on_error: ../k2}
      - {emit_intent: hop}
    on:
      hop: [{target: kp}]
  k3:
    on_enter:
      - {invoke: host.run, on_error: ../../../../k2}
      - {emit_intent: hop}
    on:
      hop: [{target: kp}]
  k2: {}
  kp:
    type: parallel
    states:
      ra: {type: compound, initial: a1, states: {a1: {}}}
      rb: {type: compound, initial: b1, states: {b1: {}}}
`)
	ds, all := loadDiags(t, dir)
	if len(ds) != 2 || ds[0].Line != 12 || !strings.Contains(ds[0].Message, `on_error "../k2" is dispatched in the parallel state "kp": emit_intent "hop" before it enters it, so both engines climb from its encoded path "kp#kp.ra.a1|kp.rb.b1", as a string, to "kp#kp.ra.a1|kp.rb.k2", not from "k1" to "k2"; name the state absolutely (`+"`k2`"+`)`) ||
		ds[1].Line != 18 || !strings.Contains(ds[1].Message, `to "kp#kp.k2", not from "k3" to "k2"`) {
		t.Errorf("want both climbs warned from the configuration; got:\n%s", all)
	}
}

// A dangling "../" on_error suggests the state named like its last
// segment nearest the declaring state before a path one letter off:
// "../z" on the region compound p.rc's on_enter climbs from its leaf
// p.rc.d1.y to p.rc.d1.z, which is not a state; p.rc.z is meant, not
// p.rc.d1.y (probes hunt118 oe/rc_z, y_z, d1_z).
func TestOnErrorSuggestsTheNamedState(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "app.yaml", `app: {id: oe}
root: s
hosts: [host.bad]
intents: {tp: {}}
states:
  s:
    on:
      tp: [{target: p}]
  p:
    type: parallel
    states:
      ra:
        type: compound
        initial: x
        states:
          x: {}
      rc:
        type: compound
        initial: d1
        on_enter:
          - {invoke: host.bad, on_error: "../z"}
        states:
          d1:
            type: compound
            initial: y
            states:
              y: {}
          z: {}
`)
	_, ds := Load(dir, story.Options{})
	got := ruleMessages(ds, ruleOnErrorTarget.ID)
	if len(got) != 1 || !strings.Contains(got[0], `to "p.rc.d1.z", which is not a state`) || !strings.HasSuffix(got[0], "did you mean `p.rc.z`?") {
		t.Errorf("on-error-target: %q, want one naming p.rc.d1.z and suggesting p.rc.z", got)
	}
}
