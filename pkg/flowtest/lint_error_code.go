package flowtest

import (
	"slices"
	"strings"

	"kitsoki/pkg/engine"
)

// rejectionCodes are the codes a rejected turn carries, on both paths, in
// both engines: an expect_error naming any other code never matches.
var rejectionCodes = []string{engine.CodeNotAllowed, engine.CodeMissingSlots, engine.CodeInvalidSlot, engine.CodeGuardFailed}

// guideCodes are the codes upstream's `docs llm-guide` §10 lists that no
// turn reports, with what a fixture sees instead.
var guideCodes = map[string]string{
	"UNKNOWN_INTENT":        "an intent the story does not declare is rejected as INTENT_NOT_ALLOWED_IN_STATE",
	"SLOT_MISSING_REQUIRED": "a missing required slot is MISSING_SLOTS (a clarification, not a rejection, on the orchestrator path)",
	"SLOT_NOT_IN_ENUM":      "a slot value outside values: is INVALID_SLOT_VALUE",
	"SLOT_TYPE_MISMATCH":    "a slot value is never refused for its type; the turn is accepted",
	"HOST_ERROR":            "a host error does not reject the turn: it sets last_error and takes on_error; assert the state or world instead",
	"HOST_NOT_ALLOWED":      "hosts: is checked when the story loads, and an unserved handler is an error in last_error, not a rejection",
}

// errorCode warns at an expect_error whose code no rejection carries: the
// turn fails whatever the story does.
func (l *fixtureLint) errorCode(t *Turn) {
	ee := t.ExpectError
	if ee.Code == "" || slices.Contains(rejectionCodes, ee.Code) {
		return
	}
	instead, ok := guideCodes[ee.Code]
	if !ok {
		instead = "a rejected turn carries one of " + strings.Join(rejectionCodes, ", ")
	}
	l.warn(ee.Pos, ruleErrorCode, "turns[%d].expect_error: code %s is never reported, so the turn always fails: %s", t.Index, ee.Code, instead)
}

// noErrorsWithRejection warns at expect_no_errors: true beside an
// expect_error turn, whose rejection counts as an error: it always fails.
func (l *fixtureLint) noErrorsWithRejection() {
	fx := l.fx
	if fx.ExpectNoErrors == nil || !*fx.ExpectNoErrors {
		return
	}
	for _, t := range fx.Turns {
		if t.ExpectError != nil {
			l.warn(fx.at("expect_no_errors"), ruleErrorCode, "expect_no_errors: true, but turns[%d] expects a rejection (expect_error), which counts as an error: the fixture always fails; drop expect_no_errors or move the negative turn to a fixture of its own", t.Index)
			return
		}
	}
}
