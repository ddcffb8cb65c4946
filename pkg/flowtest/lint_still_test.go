package flowtest

import (
	"strings"
	"testing"
)

// stillApp's work state calls host.run on entry in the way each case
// names (CALL): the fixture goes to work, then fires back, which only
// failed takes.
const stillApp = `app: {id: still}
root: lobby
hosts: [host.run]
intents: {go: {}, back: {}, retry: {}}
world:
  out: {type: string, default: ""}
states:
  lobby:
    on:
      go: [{target: work}]
  work:
    on_enter:
      - invoke: host.run
        with: {cmd: "false"}
CALL
    on:
      retry: [{target: lobby}]
  failed:
    on:
      back: [{target: lobby}]
`

// TestRejectedAfterStillCall: flow-rejected follows a fixture into a
// state whose on_enter calls a host where the call cannot move the
// machine (probed on the existing engine: a legacy fixture never makes
// the call, so its on_error never redirects; an orchestrator-path call
// without on_error lands the turn where it is; a background job whose
// on_complete only sets and says moves nothing), and not where it can.
func TestRejectedAfterStillCall(t *testing.T) {
	const legacy = "test_kind: flow\ninitial_state: lobby\nturns:\n  - intent: {name: go}\n  - intent: {name: back}\n"
	const orch = "test_kind: flow\ninitial_state: lobby\nhost_handlers:\n  host.run: {error: boom}\nturns:\n  - intent: {name: go}\n  - intent: {name: back}\n"
	cases := []struct {
		name, call, fixture string
		warn                bool
	}{
		{"legacy on_error", "        on_error: failed", legacy, true},
		{"orchestrator on_error", "        on_error: failed", orch, false},
		{"orchestrator bind", "        bind: {out: stdout}", orch, true},
		{"orchestrator agent", "        agent: helper", orch, false},
		{"background plain on_complete", "        background: true\n        on_complete:\n          - set: {out: done}\n          - say: done", orch, true},
		{"background on_complete target", "        background: true\n        on_complete:\n          - target: failed", orch, false},
		{"background on_complete emit", "        background: true\n        on_complete:\n          - emit_intent: retry", orch, false},
		{"legacy background on_complete target", "        background: true\n        on_complete:\n          - target: failed", legacy, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			app := strings.Replace(stillApp, "CALL", c.call, 1)
			got := ruleFindings(t, ruleRejected, map[string]string{"app.yaml": app}, c.fixture)
			if c.warn != (len(got) == 1) || len(got) > 1 {
				t.Fatalf("want a finding: %v, got %v", c.warn, got)
			}
			if c.warn && !strings.Contains(got[0].Message, `intent "back" is not taken at "work"`) {
				t.Fatalf("want the finding at work, got %v", got)
			}
		})
	}
}

// TestRejectedFirstTurnWithJobs: no job runs before a fixture's first
// turn (the rig never runs the initial on_enter), so a story whose job
// may move the machine still has its first turn judged.
func TestRejectedFirstTurnWithJobs(t *testing.T) {
	app := strings.Replace(stillApp, "CALL", "        background: true\n        on_complete:\n          - target: failed", 1)
	fx := "test_kind: flow\ninitial_state: lobby\nhost_handlers:\n  host.run: {data: {}}\nturns:\n  - intent: {name: back}\n"
	got := ruleFindings(t, ruleRejected, map[string]string{"app.yaml": app}, fx)
	if len(got) != 1 || !strings.Contains(got[0].Message, `intent "back" is not taken at "lobby"`) {
		t.Fatalf("want the first turn judged at lobby, got %v", got)
	}
}

// TestRejectedFirstTurnAfterInitialOnEnter: the rig never runs the
// initial state's on_enter on the orchestrator path either (probed: an
// on_enter that sets a flag and calls a failing host with on_error: b
// leaves the flag false and the fixture at a), so a first turn is
// judged at initial_state even when its on_enter calls or sets.
func TestRejectedFirstTurnAfterInitialOnEnter(t *testing.T) {
	app := `app: {id: first}
hosts: [host.run]
root: a
intents:
  look: {}
  go: {}
states:
  a:
    on_enter:
      - set: {flag: true}
      - invoke: host.run
        with: {cmd: "true"}
        on_error: b
    on:
      look: [{target: c}]
  b:
    on:
      go: [{target: c}]
  c: {terminal: true}
world:
  flag: {type: bool, default: false}
`
	fx := "test_kind: flow\ninitial_state: a\nhost_handlers:\n  host.run: {error: boom}\nturns:\n  - intent: {name: go}\n"
	got := ruleFindings(t, ruleRejected, map[string]string{"app.yaml": app}, fx)
	if len(got) != 1 || !strings.Contains(got[0].Message, `intent "go" is not taken at "a", where the fixture starts`) {
		t.Fatalf("want the first turn judged at a, got %v", got)
	}
}
