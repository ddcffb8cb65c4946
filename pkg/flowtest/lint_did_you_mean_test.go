package flowtest

import (
	"strings"
	"testing"
)

// typoApp declares the intent submit and the world key ticket, which its
// fixtures misspell.
const typoApp = `app: {id: typo}
root: draft
world:
  ticket: {type: string, default: ""}
intents:
  submit:
    slots:
      title: {type: string}
states:
  draft:
    on:
      submit:
        - target: sent
          effects:
            - set: {ticket: "{{ slots.title }}"}
  sent: {terminal: true}
`

// TestFixtureTypoSuggests: a misspelled intent is one warning (flow-rejected,
// not flow-unknown-intent beside it) naming the intent meant, and an
// expect_world key the story does not declare names the key meant (both
// fixtures fail on the existing engine: INTENT_NOT_ALLOWED_IN_STATE, and
// expect_world["tickt"] got <nil>).
func TestFixtureTypoSuggests(t *testing.T) {
	files := map[string]string{"app.yaml": typoApp}
	const intent = "test_kind: flow\ninitial_state: draft\nturns:\n  - intent: {name: sumbit, slots: {title: x}}\n    expect_state: sent\n"
	if got := ruleFindings(t, ruleUnknownIntent, files, intent); len(got) != 0 {
		t.Errorf("flow-unknown-intent beside flow-rejected: %v", got)
	}
	got := ruleFindings(t, ruleRejected, files, intent)
	if len(got) != 1 || !strings.Contains(got[0].Message, "(did you mean `submit`?)") {
		t.Errorf("want one flow-rejected suggesting submit, got %v", got)
	}
	const world = "test_kind: flow\ninitial_state: draft\nturns:\n  - intent: {name: submit, slots: {title: x}}\n    expect_world: {tickt: x}\n"
	got = ruleFindings(t, ruleWorldNever, files, world)
	if len(got) != 1 || !strings.HasSuffix(got[0].Message, "the story declares no world key \"tickt\": did you mean `ticket`?") {
		t.Errorf("want one flow-world-never suggesting ticket, got %v", got)
	}
}
