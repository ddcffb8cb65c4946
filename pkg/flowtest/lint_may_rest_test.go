package flowtest

import (
	"strings"
	"testing"
)

// mayApp: fetching calls, binds, then emits fetched when the bind holds
// (the post-bind pass), which leads back to lobby; a failing call moves
// it to failed. peeking's emit is a template, which the lint does not
// follow.
const mayApp = `app: {id: may}
root: lobby
world:
  name: {type: string}
intents: {fetch: {}, fetched: {}, peek: {}, roam: {}, back: {}}
states:
  lobby:
    on:
      fetch: [{target: fetching}]
      peek: [{target: peeking}]
      roam:
        - when: "world.name == 'x'"
          target: failed
        - target: fetching
  fetching:
    on_enter:
      - invoke: host.run
        with: {cmd: "echo sprocket"}
        bind: {name: stdout}
        on_error: failed
      - when: "world.name != nil"
        emit_intent: fetched
    on:
      fetched: [{target: lobby}]
  peeking:
    on_enter:
      - invoke: host.run
        with: {cmd: "echo sprocket"}
        bind: {name: stdout}
      - emit_intent: "{{ world.name != nil ? 'fetched' : '' }}"
    on:
      fetched: [{target: reviewed}]
  reviewed:
    terminal: true
    on: {back: [{target: lobby}]}
  failed: {terminal: true}
`

// TestLintMayRest: an expect_state naming none of the states a turn can
// end in (every arm, emit and on_error followed) is warned. Each fixture
// was run on the existing engine: the warned ones fail there (got
// "lobby", and on the legacy path "fetching", want "reviewed"), the
// others pass or are not judged.
func TestLintMayRest(t *testing.T) {
	orch := "use_orchestrator: true\ninitial_state: lobby\nhost_handlers:\n  host.run: {data: {stdout: sprocket}}\n"
	cases := []struct{ name, fixture, want string }{
		{"after a bind", orch + "turns:\n  - intent: {name: fetch}\n    expect_state: reviewed\n",
			`turns[0].expect_state: "reviewed", but the turn's intent "fetch", fired at "lobby" (where the fixture starts (initial_state)), can only end in "fetching" or "lobby" or "failed"`},
		{"legacy path", "initial_state: lobby\nturns:\n  - intent: {name: fetch}\n    expect_state: reviewed\n", `can only end in "fetching" or "lobby" or "failed"`},
		{"a guarded arm", orch + "turns:\n  - intent: {name: roam}\n    expect_state: reviewed\n", `can only end in "failed" or "fetching" or "lobby"`},
		{"the on_error target", "use_orchestrator: true\ninitial_state: lobby\nhost_handlers:\n  host.run: {error: boom}\nturns:\n  - intent: {name: fetch}\n    expect_state: failed\n", ""},
		{"the emit's target", orch + "turns:\n  - intent: {name: fetch}\n    expect_state: lobby\n", ""},
		{"a templated emit", orch + "turns:\n  - intent: {name: peek}\n    expect_state: reviewed\n", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := ruleFindings(t, ruleWrongState, map[string]string{"app.yaml": mayApp}, "test_kind: flow\n"+c.fixture)
			wantFinding(t, got, c.want)
		})
	}
}

// TestLintMayRestNext: the next turn is judged at every state the turn
// before may end in (probed: fetch, then back, which only reviewed
// takes: rejected INTENT_NOT_ALLOWED_IN_STATE at lobby).
func TestLintMayRestNext(t *testing.T) {
	orch := "test_kind: flow\nuse_orchestrator: true\ninitial_state: lobby\nhost_handlers:\n  host.run: {data: {stdout: sprocket}}\nturns:\n  - intent: {name: fetch}\n"
	got := ruleFindings(t, ruleRejected, map[string]string{"app.yaml": mayApp}, orch+"  - intent: {name: back}\n")
	if len(got) != 1 || !strings.Contains(got[0].Message, `turns[1]: intent "back" is not taken at "fetching", where turns[0] "fetch" may end (every arm, emit and on_error followed) (it and its ancestors take: fetched), nor at "lobby", where turns[0] "fetch" may end instead (taking: fetch, peek, roam), nor at "failed"`) {
		t.Fatalf("want back rejected at every state fetch may end in, got %v", got)
	}
	if got := ruleFindings(t, ruleRejected, map[string]string{"app.yaml": mayApp}, orch+"  - intent: {name: peek}\n"); len(got) != 0 {
		t.Fatalf("peek is taken at lobby: got %v", got)
	}
}

// TestLintMayRestAncestorStay: a stay on an arm an ancestor owns
// re-enters that ancestor (conformance ancestor-stay): not followed as
// staying on the leaf, so no finding where the engines move to its
// initial: leaf.
func TestLintMayRestAncestorStay(t *testing.T) {
	app := "app: {id: st}\nroot: c\nintents: {go: {}}\nstates:\n  c:\n    type: compound\n    initial: c1\n    on:\n      go: [{effects: [{say: hi}]}]\n    states:\n      c1: {}\n      c2: {}\n"
	fx := "test_kind: flow\ninitial_state: c.c2\nturns:\n  - intent: {name: go}\n    expect_state: c.c1\n"
	if got := ruleFindings(t, ruleWrongState, map[string]string{"app.yaml": app}, fx); len(got) != 0 {
		t.Fatalf("want none, got %v", got)
	}
}
