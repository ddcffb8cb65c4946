package flowtest

import "testing"

// entryApp: room's on_enter sets mode to storm; kid is an imported
// child whose world_in gives its mode storm and whose lvl defaults to 1.
const (
	entryApp = `app: {id: top}
root: start
world:
  mode: {type: string, default: calm}
intents: {enter: {}, stay: {}, again: {}, gate: {}, go: {}}
imports:
  kid:
    source: ./kid
    entry: room
    world_in:
      mode: storm
    exits: {done: {to: start}}
states:
  start:
    on:
      enter: [{target: room}]
      go: [{target: kid}]
  room:
    on_enter: [{set: {mode: storm}}]
    on:
      stay: [{target: .}]
      again: [{target: room}]
      gate: [{when: "world.mode == 'calm'", target: calmroom}]
  calmroom: {}
`
	entryKid = `app: {id: kid}
root: room
world:
  mode: {type: string, default: calm}
  lvl: {type: int, default: 1}
intents:
  look: {}
  poke: {}
exits: {done: {}}
states:
  room:
    on:
      look:
        - when: "world.mode == 'calm'"
          target: a
        - target: b
      poke:
        - when: "world.lvl > 5"
          target: a
  a:
    on: {look: [{target: "@exit:done"}]}
  b:
    on: {look: [{target: "@exit:done"}]}
`
)

// TestKnownWorldOnEnter: a certain move applies the on_enter of the
// states it enters, outermost first (an imported child's wrapper sets
// its world_in values and re-seeds its defaults), none on target ".",
// the leaf's alone on an explicit re-entry. Each fixture was run on the
// existing engine: the warned ones fail there as named (GUARD_FAILED;
// got "kid.b", want "kid.a"), the others pass.
func TestKnownWorldOnEnter(t *testing.T) {
	files := map[string]string{"app.yaml": entryApp, "kid/app.yaml": entryKid}
	cases := []struct {
		name, fixture, rule, want string // want: a substring of the one finding of rule; "": none
	}{
		{"on_enter set", "initial_state: start\nturns:\n  - intent: {name: enter}\n  - intent: {name: gate}\n",
			"rejected", `intent "gate", fired at "room" (where turns[0] "enter" leads (its first arm, unguarded, moves "start" to "room")), reaches the arms of "room", and every one's when: is false`},
		{"orchestrator path", "use_orchestrator: true\ninitial_state: start\nturns:\n  - intent: {name: enter}\n  - intent: {name: gate}\n",
			"rejected", `reaches the arms of "room", and every one's when: is false`},
		{"explicit re-entry", "initial_state: room\ninitial_world: {mode: calm}\nturns:\n  - intent: {name: again}\n  - intent: {name: gate}\n",
			"rejected", `moves "room" to "room")), reaches the arms of "room"`},
		{"target . runs no on_enter", "initial_state: room\ninitial_world: {mode: calm}\nturns:\n  - intent: {name: stay}\n  - intent: {name: gate}\n    expect_state: calmroom\n", "rejected", ""},
		{"world_in", "initial_state: start\nturns:\n  - intent: {name: go}\n    expect_state: kid.room\n  - intent: {name: kid__look}\n    expect_state: kid.a\n",
			"wrong", `turns[1].expect_state: "kid.a", but the turn's intent "kid__look", fired at "kid.room" (where turns[0].expect_state rests), takes the unguarded arm after guards false on what the fixture certainly has that moves it to "kid.b"`},
		{"world_in passing", "initial_state: start\nturns:\n  - intent: {name: go}\n  - intent: {name: kid__look}\n    expect_state: kid.b\n", "wrong", ""},
		{"a child's default re-seeded", "initial_state: start\ninitial_world: {kid__lvl: 9}\nturns:\n  - intent: {name: go}\n  - intent: {name: kid__poke}\n",
			"rejected", `reaches the arms of "kid.room", and every one's when: is false on the world the fixture certainly has then (first: world.kid__lvl > 5)`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rule := ruleRejected
			if c.rule == "wrong" {
				rule = ruleWrongState
			}
			got := ruleFindings(t, rule, files, "test_kind: flow\n"+c.fixture)
			wantFinding(t, got, c.want)
		})
	}
}
