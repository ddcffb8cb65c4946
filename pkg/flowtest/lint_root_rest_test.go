package flowtest

import "testing"

// rootRestApp's root g is a compound whose on_enter sets msg, which the
// fixture's start never runs; g.a's go is guarded on msg.
const rootRestApp = `app: {id: rootrest}
root: g
intents: {go: {}, look: {}, x: {}}
world:
  msg: {type: string, default: ""}
states:
  g:
    type: compound
    initial: a
    on_enter:
      - set: {msg: entered}
    states:
      a:
        on:
          go: [{target: ../../c, when: 'world.msg != ""'}]
          look: [{target: .}]
  c:
    on:
      x: [{target: .}]
`

// TestLintRootRest: an orchestrated fixture with no initial_state starts
// at the root's initial leaf, its on_enter not run (probed,
// /tmp/lintgaps41/p5: go at g.a is refused GUARD_FAILED at turn 0, msg
// still ""), so its first turns are judged there; the legacy path
// starts in the state "" (another warning).
func TestLintRootRest(t *testing.T) {
	cases := []struct{ name, fx, want string }{
		{"guard false at the start", "use_orchestrator: true\nturns:\n  - intent: {name: go}\n", `turns[0]: intent "go", fired at "g.a" (where the fixture starts (no initial_state: the root's initial leaf, entered with no on_enter run)), reaches the arms of "g.a", and every one's when: is false`},
		{"after a stay", "use_orchestrator: true\nturns:\n  - intent: {name: look}\n  - intent: {name: go}\n", `turns[1]: intent "go", fired at "g.a"`},
		{"not taken there", "use_orchestrator: true\nturns:\n  - intent: {name: x}\n", `turns[0]: intent "x" is not taken at "g.a", where the fixture starts (no initial_state`},
		{"taken", "use_orchestrator: true\nturns:\n  - intent: {name: look}\n", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			wantFinding(t, ruleFindings(t, ruleRejected, map[string]string{"app.yaml": rootRestApp}, "test_kind: flow\n"+c.fx), c.want)
		})
	}
}
