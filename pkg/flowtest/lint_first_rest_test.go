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
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			wantFinding(t, ruleFindings(t, ruleRejected, map[string]string{"app.yaml": firstRestApp}, head+c.fx), c.want)
		})
	}
}
