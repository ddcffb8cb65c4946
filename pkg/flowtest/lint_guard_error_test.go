package flowtest

import (
	"strings"
	"testing"
)

const guardErrorApp = `app: {id: gerr}
root: lobby
world:
  n: {type: int, default: 0}
  name: {type: string, default: "ann"}
  m: {type: int, default: 0}
intents:
  go: {}
  look: {}
  bump: {}
  pick:
    slots:
      k: {type: string}
  choose:
    slots:
      k: {type: int, default: 1}
states:
  lobby:
    on:
      go:
        - when: "world.n > 2"
          target: done
        - target: lobby
      look:
        - when: "world.m > 0"
          target: lobby
        - when: "world.name.first == 'a'"
          target: done
      bump:
        - effects: [{set: {m: 1}}]
          target: lobby
      pick:
        - when: "slots.k > 3"
          target: done
        - target: lobby
      choose:
        - when: "slots.k > 3"
          target: done
        - target: lobby
  done: {terminal: true}
`

// Each fixture fails on the existing engine with the guard's error (probed:
// "expr eval \"world.n > 2\": invalid operation: string > int", the run
// aborted; "world.name.first": invalid operation: int(string)).
func TestLintGuardError(t *testing.T) {
	files := map[string]string{"app.yaml": guardErrorApp}
	for name, src := range map[string]string{
		"a string world value compared with a number": `test_kind: flow
initial_state: lobby
initial_world: {n: "3"}
turns:
  - intent: {name: go}
`,
		"a field of a string, the arm before it false": `test_kind: flow
initial_state: lobby
turns:
  - intent: {name: look}
`,
		"a string slot compared with a number": `test_kind: flow
initial_state: lobby
turns:
  - intent: {name: pick, slots: {k: "x"}}
`,
		"a slot not sent, with no default (probed: <nil> > int)": `test_kind: flow
initial_state: lobby
turns:
  - intent: {name: pick, slots: {}}
`,
		"a world_override before the turn": `test_kind: flow
initial_state: lobby
turns:
  - intent: {name: go}
    expect_state: lobby
  - intent: {name: go}
    world_override: {n: "many"}
`,
	} {
		got := ruleFindings(t, ruleGuardError, files, src)
		if len(got) != 1 || !strings.Contains(got[0].Message, "fails to evaluate") {
			t.Errorf("%s: got %v, want one flow-guard-error", name, got)
		}
	}
}

// What is not judged: a guard that evaluates, one an earlier arm's
// uncertain or true guard may keep from running, a value the fixture
// does not certainly hold, a turn that expects an error.
func TestLintGuardErrorNotJudged(t *testing.T) {
	files := map[string]string{"app.yaml": guardErrorApp}
	for name, src := range map[string]string{
		"the guard evaluates (probed: passes)": `test_kind: flow
initial_state: lobby
turns:
  - intent: {name: go}
    expect_state: lobby
  - intent: {name: pick, slots: {k: 5}}
`,
		"an earlier arm is true": `test_kind: flow
initial_state: lobby
turns:
  - intent: {name: bump}
  - intent: {name: look}
`,
		"an earlier arm is uncertain": `test_kind: flow
initial_state: lobby
turns:
  - intent: {name: look}
    world_override: {m: "{{ 1 }}"}
`,
		"a templated slot": `test_kind: flow
initial_state: lobby
turns:
  - intent: {name: pick, slots: {k: "{{ world.n }}"}}
`,
		"a slot not sent, with a default": `test_kind: flow
initial_state: lobby
turns:
  - intent: {name: choose}
`,
		"an expected error": `test_kind: flow
initial_state: lobby
initial_world: {n: "3"}
turns:
  - intent: {name: go}
    expect_error: {code: GUARD_FAILED}
`,
	} {
		if got := ruleFindings(t, ruleGuardError, files, src); len(got) != 0 {
			t.Errorf("%s: got %v, want none", name, got)
		}
	}
}

// A slot the turn does not send and no declaration defaults reads as
// null in a known-world guard (probed: slots.k == nil is true, the
// fixture got done, want lobby, with slots: {} and with none).
func TestLintUnsentSlotIsNull(t *testing.T) {
	files := map[string]string{"app.yaml": `app: {id: unsent}
root: lobby
intents:
  look:
    slots:
      k: {type: int}
states:
  lobby:
    on:
      look:
        - when: "slots.k == nil"
          target: done
        - target: lobby
  done: {terminal: true}
`}
	for _, slots := range []string{"", ", slots: {}"} {
		got := ruleFindings(t, ruleWrongState, files, "test_kind: flow\ninitial_state: lobby\nturns:\n  - intent: {name: look"+slots+"}\n    expect_state: lobby\n")
		if len(got) != 1 || !strings.Contains(got[0].Message, `moves it to "done"`) {
			t.Errorf("slots %q: got %v", slots, got)
		}
	}
	if got := ruleFindings(t, ruleWrongState, files, "test_kind: flow\ninitial_state: lobby\nturns:\n  - intent: {name: look, slots: {k: 1}}\n    expect_state: lobby\n"); len(got) != 0 {
		t.Errorf("a sent slot: got %v", got)
	}
}
