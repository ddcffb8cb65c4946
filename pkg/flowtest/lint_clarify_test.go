package flowtest

import (
	"strings"
	"testing"
)

const clarifyApp = `app: {id: clar}
root: lobby
intents:
  go:
    slots:
      who: {type: string, required: true}
  look: {}
states:
  lobby:
    on:
      go: [{target: hall}]
      look: [{target: lobby}]
  hall:
    on:
      look: [{target: hall}]
`

// On the orchestrator path a turn leaving out a required slot is a
// clarification: the machine stays (probed: got lobby, want hall).
func TestLintClarificationStays(t *testing.T) {
	files := map[string]string{"app.yaml": clarifyApp}
	const orch = "test_kind: flow\ninitial_state: lobby\nhost_handlers: {host.run: {data: {ok: true}}}\nturns:\n"
	got := ruleFindings(t, ruleWrongState, files, orch+"  - intent: {name: go}\n    expect_state: hall\n")
	if len(got) != 1 || !strings.Contains(got[0].Message, `stays at "lobby"`) || !strings.Contains(got[0].Message, `"who"`) {
		t.Fatalf("got %v", got)
	}
	// the rest after it is where it stayed: a later expect_state is judged from there
	got = ruleFindings(t, ruleWrongState, files, orch+"  - intent: {name: go, slots: {who: null}}\n  - intent: {name: look}\n    expect_state: hall\n")
	if len(got) != 1 || !strings.Contains(got[0].Message, `fired at "lobby"`) {
		t.Fatalf("after the clarification: got %v", got)
	}
	for name, src := range map[string]string{
		"the slot is sent":           orch + "  - intent: {name: go, slots: {who: ann}}\n    expect_state: hall\n",
		"an empty string is sent":    orch + "  - intent: {name: go, slots: {who: \"\"}}\n    expect_state: hall\n",
		"it expects to stay":         orch + "  - intent: {name: go}\n    expect_state: lobby\n",
		"the legacy path rejects it": "test_kind: flow\ninitial_state: lobby\nturns:\n  - intent: {name: go}\n    expect_state: hall\n",
	} {
		if got := ruleFindings(t, ruleWrongState, files, src); len(got) != 0 {
			t.Errorf("%s: got %v", name, got)
		}
	}
}
