package flowtest

import "testing"

// TestLintAncestorStay: a stay on an arm a compound ancestor owns moves
// the machine from a leaf that is not the owner's initial one to that
// leaf (conformance ancestor-stay): chop_true's hop, emitting look from
// c.c2, rests on c.c1, which takes no hop. The legacy chop_false, which
// step does not follow (it follows no emit), is followed on the engine's
// own machine from its first turn (lint_par_replay.go); the passing fixtures get no verdict.
func TestLintAncestorStay(t *testing.T) {
	want := map[string]string{
		"chop_true.yaml":  `turns[3]: intent "hop" is not taken at "c.c1"`,
		"chop_false.yaml": `turns[3]: intent "hop", fired at "c.c1", is rejected INTENT_NOT_ALLOWED_IN_STATE by the engine's own machine, run from "a" (where the fixture starts (initial_state))`,
	}
	for _, f := range []string{"cbare", "clook", "cme", "dbare", "dlook", "dme"} {
		want[f+"_false.yaml"], want[f+"_true.yaml"] = "", ""
	}
	lintGolden(t, "../engine/testdata/conformance/ancestor-stay", want, ruleRejected, ruleWrongState, ruleWorldKnown)
}
