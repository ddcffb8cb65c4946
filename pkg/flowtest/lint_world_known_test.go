package flowtest

import (
	"strings"
	"testing"
)

// knownApp: go's arms are guarded on a slot, gate's on world keys; mode
// is never written, lamp only by light's arm, nothing is neither declared
// nor written (it reads as null).
const knownApp = `app: {id: known}
root: hall
world:
  lamp: {type: bool, default: false}
  mode: {type: string, default: calm}
intents:
  go:
    slots:
      direction: {type: string}
  light: {}
  gate: {}
  look: {}
  peek: {}
  ask:
    slots:
      who: {type: string, required: true}
states:
  hall:
    on:
      go:
        - when: "slots.direction == 'north'"
          target: north
        - when: "slots.direction == 'south'"
          target: south
      light:
        - target: .
          effects: [{set: {lamp: true}}]
      gate:
        - when: "world.mode == 'storm'"
          target: north
        - when: "world.lamp"
          target: south
      ask:
        - when: "world.mode == 'storm'"
          target: north
      peek:
        - when: "world.nothing != nil"
          target: north
  north:
    on:
      look: [{target: .}]
  south:
    on:
      light: [{target: hall}]
`

// TestRejectedKnownWorld: a guarded arm is followed when its when: reads
// only what the fixture certainly has (the slots the turn sends, a key
// nothing writes, a key a certain arm set to a literal, a
// world_override), and a turn whose every arm is false there is
// rejected GUARD_FAILED. Each fixture was run on the existing engine:
// the warned ones fail there as named, the others pass.
func TestRejectedKnownWorld(t *testing.T) {
	cases := []struct {
		name, fixture string
		want          string // a substring of the one flow-rejected finding; "": none
	}{
		{"slot guard", "initial_state: hall\nturns:\n  - intent: {name: go, slots: {direction: north}}\n  - intent: {name: light}\n",
			`turns[1]: intent "light" is not taken at "north", where turns[0] "go" leads (its arm whose when: slots.direction == 'north' is true on what the fixture certainly has, moves "hall" to "north")`},
		{"no slot arm holds", "initial_state: hall\nturns:\n  - intent: {name: go, slots: {direction: east}}\n",
			`every one's when: is false on the world the fixture certainly has then (first: slots.direction == 'north'): the turn is rejected GUARD_FAILED`},
		{"no world arm holds", "initial_state: hall\nturns:\n  - intent: {name: gate}\n",
			`turns[0]: intent "gate", fired at "hall" (where the fixture starts (initial_state)), reaches the arms of "hall", and every one's when: is false`},
		{"a literal set by a certain arm", "initial_state: hall\nturns:\n  - intent: {name: light}\n  - intent: {name: gate}\n  - intent: {name: look}\n",
			`turns[2]: intent "look" is not taken at "south"`},
		{"orchestrator path", "use_orchestrator: true\ninitial_state: hall\nturns:\n  - intent: {name: go, slots: {direction: south}}\n  - intent: {name: look}\n",
			`turns[1]: intent "look" is not taken at "south"`},
		{"initial_world", "initial_state: hall\ninitial_world: {mode: storm}\nturns:\n  - intent: {name: gate}\n  - intent: {name: look}\n    expect_state: north\n", ""},
		{"world_override", "initial_state: hall\nturns:\n  - intent: {name: gate}\n    world_override: {lamp: true}\n    expect_state: south\n  - intent: {name: light}\n    expect_state: hall\n", ""},
		{"orchestrator set", "use_orchestrator: true\ninitial_state: hall\nturns:\n  - intent: {name: light}\n  - intent: {name: gate}\n    expect_state: south\n", ""},
		// the slot renders "calm", which no arm takes: GUARD_FAILED on the
		// existing engine too (probed), found by the engine replay
		{"templated slot", "use_orchestrator: true\ninitial_state: hall\nturns:\n  - intent: {name: go, slots: {direction: \"{{ world.mode }}\"}}\n",
			`intent "go", fired at "hall", is rejected GUARD_FAILED by the engine's own machine`},
		{"an undeclared key nothing writes", "initial_state: hall\nturns:\n  - intent: {name: peek}\n",
			`reaches the arms of "hall", and every one's when: is false on the world the fixture certainly has then (first: world.nothing != nil)`},
		{"an undeclared key initial_world sets", "initial_state: hall\ninitial_world: {nothing: 1}\nturns:\n  - intent: {name: peek}\n    expect_state: north\n", ""},
		{"a clarification asks before any guard", "use_orchestrator: true\ninitial_state: hall\nturns:\n  - intent: {name: ask}\n    expect_state: hall\n", ""},
		{"after a clock advance", "initial_state: hall\nturns:\n  - intent: {name: light}\n  - advance_clock: 1s\n    intent: {name: gate}\n", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := ruleFindings(t, ruleRejected, map[string]string{"app.yaml": knownApp}, "test_kind: flow\n"+c.fixture)
			wantFinding(t, got, c.want)
		})
	}
}

// TestWrongStateKnownWorld: an expect_state the arm a guard certainly
// picks does not reach fails on the existing engine (probed: got
// "north", want "south") and is warned naming that arm.
func TestWrongStateKnownWorld(t *testing.T) {
	fx := "test_kind: flow\ninitial_state: hall\nturns:\n  - intent: {name: go, slots: {direction: north}}\n    expect_state: south\n"
	got := ruleFindings(t, ruleWrongState, map[string]string{"app.yaml": knownApp}, fx)
	if len(got) != 1 || !strings.Contains(got[0].Message, `takes the arm whose when: slots.direction == 'north' is true on what the fixture certainly has that moves it to "north"`) {
		t.Fatalf("want the guarded arm's wrong state, got %v", got)
	}
}
