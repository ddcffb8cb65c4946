package flowtest

import "testing"

// firstRestApp's initial state a emits go, unguarded, from its on_enter.
const firstRestApp = `app: {id: first}
root: a
intents: {go: {}, x: {}, y: {}}
states:
  a:
    on_enter:
      - emit_intent: go
    on:
      go: [{target: b}]
      y: [{target: a}]
  b:
    on:
      x: [{target: b}]
  t:
    timeout: {after: 10m, target: b}
    on_enter:
      - emit_intent: go
    on:
      go: [{target: b}]
  c:
    type: compound
    initial: c1
    on:
      y: [{target: a}]
    states:
      c1:
        on:
          x: [{target: b}]
`

// TestLintFirstRest: the first turn fires at the initial_state even when
// its on_enter emits (probed: x at a is rejected on the existing engine,
// turn 0); a later turn, after one that may be moved by those emits, is
// not judged.
func TestLintFirstRest(t *testing.T) {
	const head = "test_kind: flow\nuse_orchestrator: true\ninitial_state: a\n"
	cases := []struct{ name, fx, want string }{
		{"first turn", "turns:\n  - intent: {name: x}\n", `turns[0]: intent "x" is not taken at "a", where the fixture starts`},
		{"taken there", "turns:\n  - intent: {name: y}\n", ""},
		{"after a turn that re-enters", "turns:\n  - intent: {name: y}\n  - intent: {name: x}\n", ""},
		// clock-only turns run no post-bind pass (conformance first-rest-clock)
		{"after clock-only turns", "turns:\n  - advance_clock: 1m\n  - advance_clock: 1m\n  - intent: {name: x}\n", `turns[2]: intent "x" is not taken at "a", where the fixture starts`},
		{"after a clock-only turn, taken", "turns:\n  - advance_clock: 1m\n  - intent: {name: y}\n", ""},
		{"second intent after a clock-only turn", "turns:\n  - advance_clock: 1m\n  - intent: {name: y}\n  - intent: {name: x}\n", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			wantFinding(t, ruleFindings(t, ruleRejected, map[string]string{"app.yaml": firstRestApp}, head+c.fx), c.want)
		})
	}
}

// TestLintFirstRestTimeout: a clock-only turn where a timeout: may fire
// is not judged through (conformance first-rest-clock f).
func TestLintFirstRestTimeout(t *testing.T) {
	fx := "test_kind: flow\nuse_orchestrator: true\ninitial_state: t\nturns:\n  - advance_clock: 20m\n  - intent: {name: x}\n"
	wantFinding(t, ruleFindings(t, ruleRejected, map[string]string{"app.yaml": firstRestApp}, fx), "")
}

// TestLintFirstRestCompound: an initial_state naming a compound rests on
// it, not its initial: child, on both paths (conformance
// first-rest-compound).
func TestLintFirstRestCompound(t *testing.T) {
	cases := []struct{ name, fx, want string }{
		{"legacy, a child's intent", "use_orchestrator: false\nturns:\n  - intent: {name: x}\n", `turns[0]: intent "x" is not taken at "c", where the fixture starts (initial_state: a compound`},
		{"orchestrator, a child's intent", "use_orchestrator: true\nturns:\n  - intent: {name: x}\n", `turns[0]: intent "x" is not taken at "c"`},
		{"its own intent", "use_orchestrator: true\nturns:\n  - intent: {name: y}\n", ""},
		{"after a clock-only turn", "use_orchestrator: true\nturns:\n  - advance_clock: 1m\n  - intent: {name: x}\n", `turns[1]: intent "x" is not taken at "c"`},
		{"second turn", "use_orchestrator: true\nturns:\n  - intent: {name: y}\n  - intent: {name: x}\n", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			wantFinding(t, ruleFindings(t, ruleRejected, map[string]string{"app.yaml": firstRestApp}, "test_kind: flow\ninitial_state: c\n"+c.fx), c.want)
		})
	}
}
