package flowtest

import (
	"fmt"
	"slices"
	"strings"

	"kitsoki/pkg/engine"
)

// nowhereStart warns at a turn that fires an intent in a fixture that
// starts in no state: an initial_state the story does not hold, no
// dotted prefix of which it holds either (a slash is no separator:
// "c/c1"), not a parallel encoding; or none on the legacy path, or in a
// story whose root is "" (the state ""; conformance root-empty). Nothing
// takes an intent there and nothing moves the machine, so every intent
// is rejected INTENT_NOT_ALLOWED_IN_STATE on both paths (conformance
// stranded-slash-seeded, mutate-template-target-unknown's "abc"): a turn
// that does not expect that rejection fails. Only turns before which
// every intent was expected rejected so, and no input sent, are judged.
// It reports whether it warned.
func (l *fixtureLint) nowhereStart(t *Turn) bool {
	fx, ix := l.fx, l.ix
	if t.Intent == nil || t.Intent.Name == "" || ix.unfolded || !l.stillNowhere(t) {
		return false
	}
	ee := t.ExpectError
	if ee != nil && (ee.Code == engine.CodeNotAllowed || !slices.Contains(rejectionCodes, ee.Code) || ee.Code == engine.CodeMissingSlots && fx.Orchestrated()) {
		return false // expected (allowed_contains: allowedNever), or errorCode's
	}
	var where string
	switch init := fx.InitialState; {
	case init == "" && !fx.Orchestrated():
		where = `the legacy path starts in the state "" (no initial_state)`
	case init == "" && l.root.Root == "":
		where = `the story's root is "" and the fixture names no initial_state`
	case init == "" || strings.Contains(init, "#") || ix.hasState(init) || ix.knownAncestor(init) != "":
		return false
	default:
		where = fmt.Sprintf("initial_state %q names no state of the story, nor does any dotted prefix of it", init)
	}
	if ee != nil {
		l.warn(ee.Pos, ruleErrorCode, "turns[%d].expect_error: code %s, but intent %q is fired where the fixture starts, and %s: no state takes an intent there, so both engines refuse it %s and the turn always fails; expect_error: {code: %s}",
			t.Index, ee.Code, t.Intent.Name, where, engine.CodeNotAllowed, engine.CodeNotAllowed)
		return true
	}
	l.warn(t.Intent.Pos, ruleRejected, "turns[%d]: intent %q is fired where the fixture starts, and %s: no state takes an intent there and nothing moves the machine, so the turn is rejected %s on both engines; start the fixture in a state of the story, or expect the rejection (expect_error: {code: %s})",
		t.Index, t.Intent.Name, where, engine.CodeNotAllowed, engine.CodeNotAllowed)
	return true
}

// stillNowhere reports whether every turn before t that fires an intent
// expects it rejected INTENT_NOT_ALLOWED_IN_STATE and none sends input:
// nothing moved the machine from where the fixture started.
func (l *fixtureLint) stillNowhere(t *Turn) bool {
	for _, u := range l.fx.Turns {
		if u == t {
			return true
		}
		if u.HasInput || u.Intent != nil && (u.ExpectError == nil || u.ExpectError.Code != engine.CodeNotAllowed) {
			return false
		}
	}
	return false
}
