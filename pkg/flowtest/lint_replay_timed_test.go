package flowtest

import "testing"

// TestLintReplayTimed: a turn that fires an intent and advances the
// clock is followed on a run started as the rig starts, its jobs landed
// by the advance, so the turn numbers the next turns write are judged:
// synthetic-fail-turn-number's badwrong expects the numbers its failed
// landings would have taken; the fixtures upstream passes get nothing.
func TestLintReplayTimed(t *testing.T) {
	lintGolden(t, "../engine/testdata/conformance/synthetic-fail-turn-number", map[string]string{
		"bad.yaml":      "",
		"badwhen.yaml":  "",
		"badwrong.yaml": `turns[1].expect_events[0]: {Kind:turn.start From: To: Effect:map[turn:3]}, but the turn's intent "ping", fired at "s0", writes no such event after the entries before it`,
		"mix.yaml":      "",
		"move.yaml":     "",
		"par.yaml":      "",
		"timeout.yaml":  "",
		"two.yaml":      "",
	}, ruleEvents, ruleRejected, ruleWrongState, ruleView)
}
