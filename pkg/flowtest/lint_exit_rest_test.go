package flowtest

import (
	"testing"
)

// exitApp leaves the root story through @exit:done from top.a (whose
// parent takes "*"), through a guarded arm from b, and through a timeout
// from c; kid's bail is its own @exit:gone, which the importer maps to
// the state back; b's both leaves through @exit:done by either arm.
const exitApp = `app: {id: exits}
hosts: [host.run]
world: {n: {type: int, default: 0}}
intents: {go: {}, x: {}, enter: {}, wait: {}, call: {}, both: {}}
exits: {done: {description: done}}
root: top
imports:
  kid:
    source: ./kid
    entry: idle
    exits:
      gone: {to: back}
states:
  top:
    type: compound
    initial: a
    on:
      "*": [{target: top.a}]
    states:
      a:
        on:
          go: [{target: "@exit:done"}]
          x: [{target: top.a}]
          enter: [{target: kid}]
          wait: [{target: c}]
          call:
            - target: "@exit:done"
              effects: [{invoke: host.run, with: {cmd: "true"}, on_error: top.a}]
  b:
    on:
      go:
        - when: "world.n > 0"
          target: "@exit:done"
        - target: top.a
      both:
        - when: "world.n > 0"
          target: "@exit:done"
        - target: "@exit:done"
  c:
    timeout: {after: 1m, target: "@exit:done"}
  back:
    on:
      x: [{target: top.a}]
`

const exitKid = `app: {id: kid}
intents: {bail: {}}
exits: {gone: {description: gone}}
root: idle
states:
  idle:
    on:
      bail: [{target: "@exit:gone"}]
`

// TestLintExitRest: a turn after the fixture certainly left the root
// story through an exit is rejected on both engines (probed on both
// paths: x, and go again, at __exit__done; and after a turn whose every
// arm exits, its guard unknown: look at __exit__done; after a call the
// stub answers with data and no error, x at __exit__done); an exit not
// certain (an arm's call whose on_error, resolved where the turn fired,
// may keep it there: unstubbed, x passes at top.a), or an
// imported child's exit the importer maps to a state, is not judged.
func TestLintExitRest(t *testing.T) {
	files := map[string]string{"app.yaml": exitApp, "kid/app.yaml": exitKid}
	cases := []struct{ name, head, fx, rule, want string }{
		{"legacy, after the arm", "test_kind: flow\n", "initial_state: top.a\nturns:\n  - intent: {name: go}\n  - intent: {name: x}\n",
			"flow-rejected", `turns[1]: intent "x" fires after the fixture left the story through @exit:done (turns[0] "go", fired at "top.a"`},
		{"orchestrated, after expect_state", "test_kind: flow\nuse_orchestrator: true\n", "initial_state: b\nturns:\n  - world_override: {n: \"{{ 1 }}\"}\n    intent: {name: go}\n    expect_state: __exit__done\n  - intent: {name: go}\n",
			"flow-rejected", `turns[1]: intent "go" fires after the fixture left the story through @exit:done (turns[0].expect_state rests there)`},
		{"orchestrated, followed", "test_kind: flow\nuse_orchestrator: true\n", "initial_state: b\nturns:\n  - world_override: {n: 1}\n    intent: {name: go}\n  - intent: {name: go}\n",
			"flow-rejected", `turns[1]: intent "go" fires after the fixture left the story through @exit:done (turns[0] "go", fired at "b" (where the fixture starts (initial_state)), ends there, every step on the way certain`},
		{"guard true on the world", "test_kind: flow\n", "initial_state: b\ninitial_world: {n: 1}\nturns:\n  - intent: {name: go}\n  - intent: {name: x}\n",
			"flow-rejected", `takes the arm whose when: world.n > 0 is true`},
		{"after a timeout", "test_kind: flow\nuse_orchestrator: true\n", "initial_state: c\nturns:\n  - advance_clock: 2m\n  - intent: {name: x}\n",
			"flow-rejected", `turns[1]: intent "x" fires after the fixture left the story through @exit:done`},
		{"wrong expect_state", "test_kind: flow\n", "initial_state: top.a\nturns:\n  - intent: {name: go}\n    expect_state: top.a\n",
			"flow-wrong-state", `turns[0].expect_state: "top.a", but the turn's intent "go", fired at "top.a" (where the fixture starts (initial_state)), can only end in "__exit__done"`},
		{"right expect_state", "test_kind: flow\n", "initial_state: top.a\nturns:\n  - intent: {name: go}\n    expect_state: __exit__done\n", "", ""},
		{"guard unknown, expect_state the exit", "test_kind: flow\nuse_orchestrator: true\n", "initial_state: b\nturns:\n  - world_override: {n: \"{{ 1 }}\"}\n    intent: {name: go}\n    expect_state: __exit__done\n", "", ""},
		{"guard unknown", "test_kind: flow\nuse_orchestrator: true\n", "initial_state: b\nturns:\n  - world_override: {n: \"{{ 1 }}\"}\n    intent: {name: go}\n  - intent: {name: x}\n", "", ""},
		{"every arm exits, guard unknown", "test_kind: flow\nuse_orchestrator: true\n", "initial_state: b\nturns:\n  - world_override: {n: \"{{ 1 }}\"}\n    intent: {name: both}\n  - intent: {name: x}\n",
			"flow-rejected", `turns[1]: intent "x" fires after the fixture left the story through @exit:done (turns[0] "both" may end only there`},
		{"a call the stub answers", "test_kind: flow\nuse_orchestrator: true\nhost_handlers: {host.run: {data: {}}}\n", "initial_state: top.a\nturns:\n  - intent: {name: call}\n  - intent: {name: x}\n",
			"flow-rejected", `turns[1]: intent "x" fires after the fixture left the story through @exit:done (turns[0] "call", fired at "top.a"`},
		{"a call that may fail", "test_kind: flow\nuse_orchestrator: true\nhost_handlers: {host.run: {delay: 1s, data: {}}}\n", "initial_state: top.a\nturns:\n  - intent: {name: call}\n  - intent: {name: x}\n", "", ""},
		{"an unstubbed call fails to its on_error", "test_kind: flow\nuse_orchestrator: true\n", "initial_state: top.a\nturns:\n  - intent: {name: call}\n  - intent: {name: x}\n", "", ""},
		{"the child's exit maps to a state", "test_kind: flow\n", "initial_state: top.a\nturns:\n  - intent: {name: enter}\n    expect_state: kid.idle\n  - intent: {name: kid__bail}\n  - intent: {name: x}\n", "", ""},
		{"expected rejection", "test_kind: flow\n", "initial_state: top.a\nturns:\n  - intent: {name: go}\n  - intent: {name: x}\n    expect_error: {code: INTENT_NOT_ALLOWED_IN_STATE}\n", "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := append(ruleFindings(t, ruleRejected, files, c.head+c.fx), ruleFindings(t, ruleWrongState, files, c.head+c.fx)...)
			wantRuleFinding(t, got, c.rule, c.want)
		})
	}
}

// TestLintMayExits: a turn that may end only at exits, of more than one
// name, rests at an exit all the same (conformance lint-may-exits).
func TestLintMayExits(t *testing.T) {
	lintGolden(t, "../engine/testdata/conformance/lint-may-exits", map[string]string{
		"a_ok_quit_look.yaml":  `turns[2]: intent "look" fires after the fixture left the story through @exit:done or @exit:abandoned (turns[1] "quit" may end only at an exit`,
		"b_err_quit_quit.yaml": `it rests at "__exit__done" or "__exit__abandoned", where no state takes any intent`,
		"c_ok_quit.yaml":       "",
		"d_err_quit.yaml":      "",
	}, ruleRejected, ruleWrongState)
}
