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

// errorCode warns at an expect_error whose code no rejection carries, or
// that names none, or MISSING_SLOTS on the orchestrator path (a
// clarification there: flow-format §3.6): the turn fails whatever the
// story does.
func (l *fixtureLint) errorCode(t *Turn) {
	ee := t.ExpectError
	if ee.Code == "" {
		// conformance lint-error-code-empty: code "" is compared too
		l.warn(ee.Pos, ruleErrorCode, "turns[%d].expect_error names no code, so the turn always fails: both engines compare the code whatever else it lists, against the rejection's (never empty) or, for an accepted turn, report no error at all; name the code the turn is refused with (one of %s)", t.Index, strings.Join(rejectionCodes, ", "))
		return
	}
	if ee.Code == engine.CodeMissingSlots && l.fx.Orchestrated() {
		// conformance intent-slot-defaults orch, start-under-known-rest
		l.warn(ee.Pos, ruleErrorCode, "turns[%d].expect_error: code %s on the orchestrator path, where a left-out required slot is a clarification (mode clarify), never a rejection: the turn always fails (expected error %q but got none); expect the clarification's resting state instead, or move the turn to a legacy-path fixture (use_orchestrator: false)", t.Index, ee.Code, ee.Code)
		return
	}
	if slices.Contains(rejectionCodes, ee.Code) {
		if ix := l.ix; ee.Code != engine.CodeNotAllowed && t.Intent != nil && t.Intent.Name != "" && !ix.intents[t.Intent.Name] && !ix.wildcard && !ix.unfolded {
			// conformance lint-undeclared-intent e
			l.warn(ee.Pos, ruleErrorCode, "turns[%d].expect_error: code %s, but intent %q is declared nowhere in the story and no state takes it (no \"*\" arm): both engines refuse it %s, so the turn always fails; expect_error: {code: %s}", t.Index, ee.Code, t.Intent.Name, engine.CodeNotAllowed, engine.CodeNotAllowed)
			return
		}
		if !l.missingNever(t) {
			l.allowedNever(t)
		}
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

// takenExpectRejected warns at a turn expecting INTENT_NOT_ALLOWED_IN_STATE
// for an intent the plain state the fixture certainly rests in (r), or an
// ancestor, takes (an on: arm for it, or "*"): both engines accept it
// there, or refuse it with another code (a guard, a slot), so the turn
// fails ("expected error … but got none"; conformance lint-rejected-rest
// f). A bare spelling of an imported child's intent is not judged. It
// reports whether it warned.
func (l *fixtureLint) takenExpectRejected(t *Turn, r rest) bool {
	ix, ee := l.ix, t.ExpectError
	if ee == nil || ee.Code != engine.CodeNotAllowed || t.Intent == nil || t.Intent.Name == "" || r.at == nil || len(r.alt) > 0 ||
		r.exit != "" || ix.unfolded || inParallel(r.at) || len(ix.aliases[t.Intent.Name]) > 0 || !takes(r.at, t.Intent.Name) {
		return false
	}
	l.warn(ee.Pos, ruleErrorCode, "turns[%d].expect_error: code %s, but intent %q is taken at %q, where %s (it and its ancestors take: %s): neither engine refuses it so (it is accepted there, or refused with another code), so the turn always fails; expect the code it is refused with, fire an intent %q does not take, or fix the turns before it",
		t.Index, engine.CodeNotAllowed, t.Intent.Name, r.at.Path, r.from, takenList(r.at), r.at.Path)
	return true
}

// allowedNever warns at an expect_error whose allowed_contains names an
// intent no rejection ever lists: a rejection's allowed list holds the
// on: names (never "*") of the states the machine rests in and their
// ancestors, and the bare names of imported intents there, so a name no
// state of the story has an on: arm for is in none, and the turn fails
// (expect_error.allowed_contains: "<x>" not in [..], or an accepted
// turn's "got none"; conformance allowed-priority-order); and on the
// legacy path a rejection other than INTENT_NOT_ALLOWED_IN_STATE lists
// none at all.
func (l *fixtureLint) allowedNever(t *Turn) {
	ix, ee := l.ix, t.ExpectError
	if ix.unfolded {
		return
	}
	if len(ee.AllowedContains) > 0 && ee.Code != engine.CodeNotAllowed && !l.fx.Orchestrated() {
		// conformance start-under-known-rest legacy: GUARD_FAILED lists nothing
		l.warn(ee.Pos, ruleErrorCode, "turns[%d].expect_error: code %s with allowed_contains on the legacy path, where only an %s rejection lists the allowed intents (any other lists none): the turn always fails (expect_error.allowed_contains: %q not in allowed list []); drop allowed_contains, or run the fixture on the orchestrator path (use_orchestrator: true)", t.Index, ee.Code, engine.CodeNotAllowed, ee.AllowedContains[0])
		return
	}
	for _, a := range ee.AllowedContains {
		if a == "*" || !ix.taken[a] && len(ix.aliases[a]) == 0 {
			l.warn(ee.Pos, ruleErrorCode, "turns[%d].expect_error.allowed_contains: %q, but no state of the story takes it (no on: %s arm): a rejection lists only the intents the states it rests in take, so the turn always fails; name an intent the resting state takes, or drop it", t.Index, a, a)
			return
		}
	}
}
