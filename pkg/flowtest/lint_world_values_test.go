package flowtest

import "testing"

// valuesApp: outcome is only ever set to literals; note is set from a
// template, score incremented, reply bound by a call; kid is an
// imported child whose world_in gives its mode storm (default calm).
const valuesApp = `app: {id: vals}
root: lobby
world:
  outcome: {type: string, default: ""}
  note: {type: string, default: ""}
  score: {type: int, default: 0}
  reply: {type: string, default: ""}
intents: {win: {}, lose: {}, tally: {}, ask: {}, go: {}}
imports:
  kid:
    source: ./kid
    entry: room
    world_in:
      mode: storm
    exits: {done: {to: lobby}}
states:
  lobby:
    on:
      win: [{target: done, effects: [{set: {outcome: lost, note: "{{ world.outcome }}!"}}]}]
      lose: [{target: done, effects: [{set: {outcome: lost}}]}]
      tally: [{target: lobby, effects: [{increment: {score: 1}}]}]
      ask: [{target: lobby, effects: [{invoke: host.run, with: {cmd: "echo"}, bind: {reply: stdout}}]}]
      go: [{target: kid}]
  done: {terminal: true}
`

// TestWorldNever: an expect_world value no path gives the key is warned
// naming every value it may hold (probed on the existing engine:
// expect_world["outcome"]: got lost (string), want won (string)); a key
// with a value the lint cannot follow, or one the fixture itself gives,
// is not.
func TestWorldNever(t *testing.T) {
	files := map[string]string{"app.yaml": valuesApp, "kid/app.yaml": entryKid}
	cases := []struct{ name, fixture, want string }{
		{"only literals", "initial_state: lobby\nturns:\n  - intent: {name: win}\n    expect_world: {outcome: won}\n",
			`turns[0].expect_world["outcome"]: "won", but no path gives "outcome" that value: the story and the fixture only ever set it to "" (its start value), "lost" (state "lobby" intent "win" effects[0]), "lost" (state "lobby" intent "lose" effects[0])`},
		{"expect_world_final", "initial_state: lobby\nturns:\n  - intent: {name: lose}\nexpect_world_final: {outcome: draw}\n",
			`expect_world_final["outcome"]: "draw", but no path gives "outcome" that value`},
		{"world_in", "initial_state: lobby\nturns:\n  - intent: {name: go}\n    expect_world: {kid__mode: windy}\n",
			`"calm" (its start value), "storm" (state "kid" on_enter[`},
		{"a value set", "initial_state: lobby\nturns:\n  - intent: {name: lose}\n    expect_world: {outcome: lost}\n", ""},
		{"initial_world", "initial_state: lobby\ninitial_world: {outcome: won}\nturns:\n  - intent: {name: tally}\n    expect_world: {outcome: won}\n", ""},
		{"world_override", "initial_state: lobby\nturns:\n  - intent: {name: tally}\n    world_override: {outcome: won}\n  - intent: {name: tally}\n    expect_world: {outcome: won}\n", ""},
		{"a templated set", "initial_state: lobby\nturns:\n  - intent: {name: win}\n    expect_world: {note: \"lost!\"}\n", ""},
		{"an increment", "initial_state: lobby\nturns:\n  - intent: {name: tally}\n    expect_world: {score: 1}\n", ""},
		{"a bind", "use_orchestrator: true\ninitial_state: lobby\nhost_handlers:\n  host.run: {data: {stdout: hi}}\nturns:\n  - intent: {name: ask}\n    expect_world: {reply: hi}\n", ""},
		{"printed alike", "initial_state: lobby\nturns:\n  - intent: {name: tally}\n    expect_world: {score: \"0\"}\n", ""},
		{"expected null", "initial_state: lobby\nturns:\n  - intent: {name: win}\n    expect_world: {outcome: null}\n", ""},
		{"an expect_error turn", "initial_state: lobby\nturns:\n  - intent: {name: win}\n    expect_error: {code: GUARD_FAILED}\n    expect_world: {outcome: won}\n", ""},
		{"an engine key", "initial_state: lobby\nturns:\n  - intent: {name: win}\n    expect_world: {last_error: boom}\n", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := ruleFindings(t, ruleWorldNever, files, "test_kind: flow\n"+c.fixture)
			wantFinding(t, got, c.want)
		})
	}
}

// TestLintJobIDValues: a key bound to a background job's id, last_job_id,
// and a set: copying either hold a value no literal equals (conformance
// job-id-values): a, d, e are flagged; b and f expect the start value
// the key held before the submission, which the static rule allows.
func TestLintJobIDValues(t *testing.T) {
	lintGolden(t, "../engine/testdata/conformance/job-id-values", map[string]string{
		"a_bound_literal.yaml": `"a background job's id (new each run)" (state "j" on_enter[0])`,
		"b_bound_empty.yaml":   unwarned,
		"c_before.yaml":        "",
		"d_copy.yaml":          `turns[1].expect_world["r"]: "hello", but no path gives "r" that value`,
		"e_copy_alt.yaml":      `turns[1].expect_world["r2"]: "none", but no path gives "r2" that value`,
		"f_last_job_id.yaml":   unwarned,
		"g_copy_before.yaml":   "",
	}, ruleWorldNever, ruleWorldKnown)
}
