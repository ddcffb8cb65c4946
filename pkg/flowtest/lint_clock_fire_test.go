package flowtest

import (
	"strings"
	"testing"
)

// fireApp is the corpus timeout story's shape: waiting times out to
// traveled after 10d; back leads from lobby to waiting through a call.
const fireApp = `app: {id: fire}
hosts: [host.run]
root: lobby
intents: {wait: {}, call: {}, continue: {}}
states:
  lobby:
    on:
      wait: [{target: waiting}]
      call:
        - target: waiting
          effects: [{invoke: host.run, with: {cmd: "true"}, on_error: lobby}]
  waiting:
    timeout: {after: 10d, target: traveled}
    on:
      continue: [{target: lobby}]
  traveled: {terminal: true}
`

// landingApp is fireApp with visits, an int, traveled's on_enter enter
// and, when other is not empty, lobby's wait arm's effects other.
func landingApp(enter, other string) string {
	app := strings.Replace(fireApp, "root: lobby\n", "root: lobby\nworld: {visits: {type: int, default: 0}}\n", 1)
	app = strings.Replace(app, "  traveled: {terminal: true}\n", "  traveled: {terminal: true, on_enter: "+enter+"}\n", 1)
	if other != "" {
		app = strings.Replace(app, "wait: [{target: waiting}]", "wait: [{target: waiting, effects: "+other+"}]", 1)
	}
	return app
}

// landingFx rests at waiting and advances past its timeout.
const landingFx = "initial_state: waiting\nturns:\n  - advance_clock: 11d\n    expect_state: waiting\n"

// nestedFireApp puts waiting under outer, which has a timeout of its own.
const nestedFireApp = `app: {id: fire}
root: lobby
intents: {wait: {}, continue: {}}
states:
  lobby:
    on:
      wait: [{target: outer}]
  outer:
    type: compound
    initial: waiting
    timeout: {after: 1d, target: lobby}
    states:
      waiting:
        timeout: {after: 10d, target: traveled}
        on:
          continue: [{target: lobby}]
  traveled: {terminal: true}
`

// TestLintClockFires: an advance_clock at least as long as the resting
// state's own timeout.after fires it (probed on the timeout story:
// advance 11d past after: 10d, then continue is rejected at traveled);
// shorter, after a turn whose call may be swallowed, or with an
// ancestor's timeout too, the turn is not judged.
func TestLintClockFires(t *testing.T) {
	const head = "test_kind: flow\nuse_orchestrator: true\nhost_handlers: {host.run: {data: {}}}\n"
	cases := []struct {
		name, app, fx string
		rule          string
		want          string
	}{
		{"rejected after it fires", fireApp, "initial_state: waiting\nturns:\n  - advance_clock: 11d\n  - intent: {name: continue}\n",
			"flow-rejected", `turns[1]: intent "continue" is not taken at "traveled", where turns[0] advances the clock by 11d at "waiting"`},
		{"exactly after", fireApp, "initial_state: waiting\nturns:\n  - advance_clock: 10d\n    expect_state: waiting\n",
			"flow-wrong-state", `turns[0].expect_state: "waiting", but the turn only advances the clock by 10d at "waiting"`},
		{"after a plain move", fireApp, "initial_state: lobby\nturns:\n  - intent: {name: wait}\n  - advance_clock: 11d\n    expect_state: waiting\n",
			"flow-wrong-state", `its timeout fires and moves it to "traveled"`},
		{"shorter", fireApp, "initial_state: waiting\nturns:\n  - advance_clock: 9d\n  - intent: {name: continue}\n", "", ""},
		{"after a call", fireApp, "initial_state: lobby\nturns:\n  - intent: {name: call}\n    expect_state: waiting\n  - advance_clock: 11d\n    expect_state: waiting\n", "", ""},
		{"an ancestor's timeout", nestedFireApp, "initial_state: outer.waiting\nturns:\n  - advance_clock: 11d\n    expect_state: outer.waiting\n", "", ""},
		// a landing that fails is rolled back (conformance clock/fail-landing)
		{"landing adds to a number", landingApp(`[{increment: {visits: 1}}]`, ""), landingFx, "flow-wrong-state", `its timeout fires and moves it to "traveled"`},
		{"landing adds to text", landingApp(`[{increment: {visits: 1}}]`, `[{set: {visits: "{{ 'x' }}"}}]`), landingFx, "", ""},
		{"landing's set fails", landingApp(`[{set: {visits: "{{ world.visits + 'x' }}"}}]`, ""), landingFx, "", ""},
		{"landing's guard", landingApp(`[{when: "world.visits > 0", set: {visits: 2}}]`, ""), landingFx, "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			files := map[string]string{"app.yaml": c.app}
			got := append(ruleFindings(t, ruleRejected, files, head+c.fx), ruleFindings(t, ruleWrongState, files, head+c.fx)...)
			wantRuleFinding(t, got, c.rule, c.want)
		})
	}
}

// TestLintClockWaits: a clock-only turn short of the resting state's
// timeout leaves it there and arms nothing, so the advances after it
// add up (conformance lint-clock-wait): each fixture upstream fails is
// warned as it fails there, the ones it passes are not.
func TestLintClockWaits(t *testing.T) {
	lintGolden(t, "../engine/testdata/conformance/lint-clock-wait", map[string]string{
		"a_short_then_long.yaml":     `intent "continue" is not taken at "traveled", where turns[1] advances the clock by 11d (`,
		"b_short_stays.yaml":         `short of that state's timeout.after (10d): the timeout does not fire and it stays at "waiting"`,
		"c_adds_up.yaml":             `by 6d (288h0m0s in all since the turn that armed its timeout)`,
		"d_short_then_continue.yaml": "",
		"e_adds_up_fires.yaml":       "",
		"f_turn_rearms.yaml":         "",
	}, ruleRejected, ruleWrongState)
}

// TestLintTerminalRestUnarmed: a rest in a terminal state, by a move, a
// stay or a timeout's landing, arms no timeout (conformance
// lint-terminal-rest-unarmed): only the start's armed timeout is judged
// to fire.
func TestLintTerminalRestUnarmed(t *testing.T) {
	lintGolden(t, "../engine/testdata/conformance/lint-terminal-rest-unarmed", map[string]string{
		"a_move_in.yaml":       "",
		"b_stay.yaml":          "",
		"c_timeout_lands.yaml": "",
		"d_start_fires.yaml":   `intent "look" is not taken at "c", where turns[0] advances the clock by 2h at "a" (where the fixture starts (initial_state))`,
	}, ruleRejected, ruleWrongState)
}

// TestLintTimeoutDead: a timeout whose target names no state as written
// never fires; the machine stays (conformance lint-timeout-dead).
func TestLintTimeoutDead(t *testing.T) {
	lintGolden(t, "../engine/testdata/conformance/lint-timeout-dead", map[string]string{
		"tpl.yaml":         "",
		"tpl_moved.yaml":   `turns[0].expect_state: "s2", but the turn only advances the clock by 6m at "s0"`,
		"tpl_set.yaml":     `turns[1].expect_state: "s3", but the turn only advances the clock by 6m at "s0"`,
		"tpl_look.yaml":    `turns[1]: intent "look" is not taken at "s0"`,
		"int.yaml":         "",
		"int_moved.yaml":   `whose target "s{{ world.n }}" names no state as written`,
		"slash.yaml":       "",
		"slash_moved.yaml": `whose target "c/c1" names no state as written`,
		"dotted.yaml":      "",
		"dotted_stay.yaml": `turns[0].expect_state: "v0"`,
	}, ruleRejected, ruleWrongState)
}
