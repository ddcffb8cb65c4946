package flowtest

import (
	"strings"
	"testing"
)

// parEntryApp: outside enters the parallel clock, whose calendar region
// starts at soggy (not day1); hop enters it with an emit_intent the
// lint does not follow there.
const parEntryApp = `app: {id: parentry}
root: outside
world:
  entered: {type: bool, default: false}
intents: {enter: {}, hop: {}, tick: {}, leave: {}}
states:
  outside:
    on:
      enter: [{target: clock}]
      hop: [{target: clock, effects: [{emit_intent: leave}]}]
      leave: [{target: outside}]
  clock:
    type: parallel
    on_enter: [{set: {entered: true}}]
    on:
      leave: [{target: outside}]
    states:
      calendar:
        type: compound
        initial: soggy
        states:
          day1: {}
          soggy:
            on: {tick: [{target: ../day1}]}
      weather:
        type: compound
        initial: dry
        states:
          dry: {}
          rain: {}
`

// TestLintParallelEntry: a turn that can only enter a parallel state
// from outside lands on each region's initial: leaf, printed root#a|b
// with the leaves sorted (probed: parallel_smoke with its calendar's
// initial: soggy fails "clock#clock.calendar.day1|clock.weather.dry",
// got "clock#clock.calendar.soggy|clock.weather.dry"; a region leaf
// alone never matches the parallel path; an on_enter's emit: moves
// nothing; an emit_intent dispatched there is followed on the engine's
// own machine, lint_par_replay.go: the existing engine rests at outside
// too). A timeout an advance_clock may fire is followed on the engine's
// own machine, run from the first turn as the rig runs it (probed: a
// region leaf's timeout does not fire, upstream rests at soggy|dry).
func TestLintParallelEntry(t *testing.T) {
	const landed = `can only end in "clock#clock.calendar.soggy|clock.weather.dry"`
	cases := []struct{ name, app, turn, want string }{
		{"the old initial leaf", parEntryApp, "  - intent: {name: enter}\n    expect_state: \"clock#clock.calendar.day1|clock.weather.dry\"\n", landed},
		{"a region leaf alone", parEntryApp, "  - intent: {name: enter}\n    expect_state: clock.weather.dry\n", landed},
		{"the landing", parEntryApp, "  - intent: {name: enter}\n    expect_state: \"clock#clock.calendar.soggy|clock.weather.dry\"\n", ""},
		{"an emit_intent there", parEntryApp, "  - intent: {name: hop}\n    expect_state: \"clock#clock.calendar.day1|clock.weather.dry\"\n", `rests at "outside" on the engine's own machine`},
		// an on_enter's emit: reaches no region (conformance lint-par-enter-emit)
		{"an emit: event on entry", strings.Replace(parEntryApp, "          soggy:\n", "          soggy:\n            on_enter: [{emit: tick}]\n", 1),
			"  - intent: {name: enter}\n    expect_state: \"clock#clock.calendar.day1|clock.weather.dry\"\n", landed},
		{"a timeout on a region leaf", strings.Replace(parEntryApp, "          dry: {}\n", "          dry: {timeout: {after: 1s, target: ../rain}}\n", 1),
			"  - intent: {name: enter}\n    advance_clock: 2s\n    expect_state: \"clock#clock.calendar.day1|clock.weather.dry\"\n", `rests at "clock#clock.calendar.soggy|clock.weather.dry" on the engine's own machine`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fx := "test_kind: flow\nuse_orchestrator: true\ninitial_state: outside\nturns:\n" + c.turn
			got := ruleFindings(t, ruleWrongState, map[string]string{"app.yaml": c.app}, fx)
			wantFinding(t, got, c.want)
		})
	}
	// leaves out of order: parallelOrder's one finding, not a second
	fx := "test_kind: flow\nuse_orchestrator: true\ninitial_state: outside\nturns:\n  - intent: {name: enter}\n    expect_state: \"clock#clock.weather.dry|clock.calendar.day1\"\n"
	if got := ruleFindings(t, ruleWrongState, map[string]string{"app.yaml": parEntryApp}, fx); len(got) != 1 || !strings.Contains(got[0].Message, "out of the order") {
		t.Fatalf("want parallelOrder's finding alone, got %v", got)
	}
}
