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

// TestLintReplayStaged: a staged fixture on the orchestrator path is run
// staged from its first turn, as the rig runs it, so a post-bind emit's
// harness.error payload is judged: emit-intent-error-as-written's lifted
// expects the lifted intent name, which neither engine writes.
func TestLintReplayStaged(t *testing.T) {
	lintGolden(t, "../engine/testdata/conformance/emit-intent-error-as-written", map[string]string{
		"as_written.yaml": "",
		"lifted.yaml":     `turns[0].expect_events[0]: {Kind:harness.error From: To: Effect:map[error:emit_intent "kid__pass" at "kid.check": no transition arm matched (intent has no on: handler, or all guards failed)]}, but the turn's intent "start", fired at "idle", writes no such event`,
	}, ruleEvents, ruleRejected, ruleWrongState, ruleView)
}
