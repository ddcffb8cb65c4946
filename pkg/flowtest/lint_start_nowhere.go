package flowtest

import (
	"fmt"
	"strings"

	"kitsoki/pkg/engine"
)

// nowhereStart warns at the first turn that fires an intent (no turn
// before it fires one or sends input) in a fixture that starts in no
// state: an initial_state the story does not hold, no dotted prefix of
// which it holds either (a slash is no separator: "c/c1"), not a
// parallel encoding; or none on the legacy path, or in a story whose
// root is "" (the state ""; conformance root-empty). Nothing
// takes an intent there and nothing moves the machine, so every intent
// is rejected INTENT_NOT_ALLOWED_IN_STATE on both paths (conformance
// stranded-slash-seeded, mutate-template-target-unknown's "abc"). A turn
// expecting a rejection is not judged here. It reports whether it warned.
func (l *fixtureLint) nowhereStart(t *Turn) bool {
	fx, ix := l.fx, l.ix
	if t.ExpectError != nil || t.Intent == nil || t.Intent.Name == "" || ix.unfolded || !l.firesFirst(t) {
		return false
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
	l.warn(t.Intent.Pos, ruleRejected, "turns[%d]: intent %q is fired where the fixture starts, and %s: no state takes an intent there and nothing moves the machine, so the turn is rejected %s on both engines; start the fixture in a state of the story, or expect the rejection (expect_error: {code: %s})",
		t.Index, t.Intent.Name, where, engine.CodeNotAllowed, engine.CodeNotAllowed)
	return true
}

// firesFirst reports whether t is the fixture's first turn that fires
// an intent or sends input.
func (l *fixtureLint) firesFirst(t *Turn) bool {
	for _, u := range l.fx.Turns {
		if u == t {
			return true
		}
		if u.Intent != nil || u.HasInput {
			return false
		}
	}
	return false
}
