package flowtest

import (
	"strings"
	"testing"
)

// TestLintClock: a turn's advance_clock runs after its intent
// (flow-format §3), and where no timeout and no moving job can act it
// leaves the machine where the intent left it. Each fixture was run on
// the existing engine: the warned ones fail there as named.
func TestLintClock(t *testing.T) {
	timed := strings.Replace(rejectedApp, "  done: {terminal: true}\n", "  done:\n    terminal: true\n    timeout: {after: 1s, target: lobby}\n", 1)
	cases := []struct {
		name, app, fixture, rule, want string // want: a substring of the one finding of rule; "": none
	}{
		{"the intent fires before the advance", rejectedApp, "initial_state: lobby\nturns:\n  - intent: {name: go}\n    expect_state: done\n  - advance_clock: 1s\n    intent: {name: pick, slots: {color: red}}\n",
			"rejected", `turns[1]: intent "pick" is not taken at "done", where turns[0].expect_state rests`},
		{"a clock-only turn stays", rejectedApp, "initial_state: lobby\nturns:\n  - advance_clock: 1h\n  - intent: {name: go}\n    expect_state: lobby\n",
			"wrong", `turns[1].expect_state: "lobby", but the turn's intent "go", fired at "lobby" (where turns[0] only advances the clock, with no timeout or moving job: it stays)`},
		{"expect_state after an advance", rejectedApp, "initial_state: lobby\nturns:\n  - intent: {name: go}\n    advance_clock: 1s\n    expect_state: lobby\n",
			"wrong", `moves it to "done" (and its advance_clock, with no timeout there and no background job that moves the machine, leaves it there)`},
		{"a clock-only expect_state", rejectedApp, "initial_state: lobby\nturns:\n  - advance_clock: 1s\n    expect_state: done\n",
			"wrong", `turns[0].expect_state: "done", but the turn only advances the clock at "lobby" (where the fixture starts (initial_state)), which has no timeout:`},
		{"a clarification", rejectedApp, "use_orchestrator: true\ninitial_state: lobby\nturns:\n  - intent: {name: need}\n    advance_clock: 1s\n    expect_state: done\n",
			"wrong", `leaves out its required slot "who": on this orchestrator-path fixture the turn is a clarification, and the machine stays at "lobby"`},
		// the run started as the rig starts follows the advance, which the
		// legacy path does not make (probed: got "done")
		{"a timeout may fire", timed, "initial_state: lobby\nturns:\n  - intent: {name: go}\n    advance_clock: 1s\n    expect_state: lobby\n", "wrong", `rests at "done" on the engine's own machine`},
		{"a clock-only turn where a timeout may fire", timed, "initial_state: lobby\nturns:\n  - intent: {name: go}\n  - advance_clock: 1s\n    expect_state: lobby\n  - intent: {name: go}\n    expect_state: done\n", "wrong", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rule := ruleRejected
			if c.rule == "wrong" {
				rule = ruleWrongState
			}
			got := ruleFindings(t, rule, map[string]string{"app.yaml": c.app}, "test_kind: flow\n"+c.fixture)
			wantFinding(t, got, c.want)
		})
	}
}
