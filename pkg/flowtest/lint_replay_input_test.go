package flowtest

import "testing"

// TestLintReplayInput: a legacy-path input: turn is run with the intent
// and slots the fixture's recording answers it with, as the rig sends
// them (no slots: key or slots: ~ is null, slots: {} an empty map), so
// its machine.transition payload is judged: recording-slots-null's three
// failing documents are found, the three passing ones are not.
func TestLintReplayInput(t *testing.T) {
	msg := func(slots, input string) string {
		return `turns[0].expect_events[0]: {Kind:machine.transition From: To: Effect:map[slots:` + slots + `]}, but the intent "go" the recording answers the turn's input "` + input + `" with, fired at "a", writes no such event`
	}
	lintGolden(t, "../engine/testdata/conformance/recording-slots-null", map[string]string{
		"bare_empty.yaml":  msg("map[]", "bare"),
		"bare_null.yaml":   "",
		"empty_empty.yaml": "",
		"empty_null.yaml":  msg("<nil>", "empty"),
		"tilde_empty.yaml": msg("map[]", "tilde"),
		"tilde_null.yaml":  "",
	}, ruleEvents, ruleRejected, ruleWrongState, ruleView)
}

// TestLintReplayInputRoutes: the recording answers an input: turn at the
// state the run rests at, so a routed intent that state does not take is
// rejected, and a routed move's resting state judged (conformance
// lint-recorded-input).
func TestLintReplayInputRoutes(t *testing.T) {
	lintGolden(t, "../engine/testdata/conformance/lint-recorded-input", map[string]string{
		"ok.yaml":    "",
		"rej.yaml":   `turns[1]: intent "go" (the recording's answer to the turn's input "x"), fired at "b", is rejected INTENT_NOT_ALLOWED_IN_STATE by the engine's own machine`,
		"wrong.yaml": `turns[1].expect_state: "b", but the intent "back" the recording answers the turn's input "y" with, fired at "b", rests at "a"`,
	}, ruleEvents, ruleRejected, ruleWrongState, ruleView)
}
