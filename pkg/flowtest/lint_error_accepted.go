package flowtest

import (
	"fmt"
	"slices"
	"strings"

	"kitsoki/internal/jsonvalue"
	"kitsoki/pkg/engine"
	"kitsoki/pkg/story"
)

// acceptedExpectError warns at an expect_error turn whose intent both
// engines certainly accept where the fixture certainly rests (a plain
// state outside any parallel one): it is declared, sends every required
// slot, and no declaration lists values: for a slot, and the
// arms it reaches (chosenArm) certainly take one, unguarded or with a
// when: certainly true on the world the fixture has. No rejection
// happens, so the turn fails "expected error "<code>" but got none"
// (with the outcome's mode on the orchestrator path: completed,
// transitioned; flow-format §3.6; conformance expect-error-mode-completed,
// expect-error-mode-capped). It reports whether it warned.
func (l *fixtureLint) acceptedExpectError(t *Turn, r rest) bool {
	ix, ee := l.ix, t.ExpectError
	if ee == nil || !slices.Contains(rejectionCodes, ee.Code) || t.Intent == nil || t.HasAdvance || ix.unfolded {
		return false
	}
	name := t.Intent.Name
	at, path, from := r.at, "", r.from
	if at == nil && len(r.alt) == 0 && r.exit == "" && r.in == nil {
		at, path, from = l.rawStart(t)
	} else if at != nil {
		path = at.Path
	}
	if name == "" || !ix.intents[name] || len(ix.aliases[name]) > 0 || at == nil || len(r.alt) > 0 || r.exit != "" || inParallel(at) {
		return false
	}
	decls := ix.decls[name]
	if l.leavesRequired(t, decls) || l.slotsMayBeRefused(t) || mayRefuseSlots(t, decls) {
		return false
	}
	n, a := chosenArm(at, name, l.guardOf(t))
	if a == nil || path != at.Path && !n.HasOn(name) {
		return false // a "*" arm from a raw path is not probed
	}
	l.warn(ee.Pos, ruleErrorCode, "turns[%d].expect_error: code %s, but intent %q, fired at %q (where %s), takes %s of %q: neither engine rejects it, so the turn always fails (expected error %q but got none); drop expect_error and assert where it leads, fire an intent refused there, or fix the turns before it",
		t.Index, ee.Code, name, path, from, armTook(n, name, a), n.Path, ee.Code)
	return true
}

// rawStart is, for t the fixture's first turn, the state whose intents
// it takes when initial_state names no state but a plain state is its
// deepest known dotted prefix (c.c9 under c): the session rests on the
// raw path, taking the intents of that state and its ancestors on both
// paths (conformance start-under-known-rest); nil otherwise.
func (l *fixtureLint) rawStart(t *Turn) (*story.State, string, string) {
	fx, ix := l.fx, l.ix
	init := fx.InitialState
	if len(fx.Turns) == 0 || t != fx.Turns[0] || init == "" || strings.Contains(init, "#") || ix.hasState(init) {
		return nil, "", ""
	}
	anc := ix.byPath[ix.knownAncestor(init)]
	if anc == nil || anc.Parallel || inParallel(anc) {
		return nil, "", ""
	}
	return anc, init, fmt.Sprintf("the fixture starts (initial_state), a path under %q that takes its intents", anc.Path)
}

// mayRefuseSlots reports whether t sends a {{ }} template slot, or some
// declaration of its intent lists values: for a slot and may refuse the
// value it checks there: a value sent, or the default of a slot left out,
// outside them is refused INVALID_SLOT_VALUE, and so is a null sent
// (conformance intent-slot-defaults: a slot left out takes its default,
// checked even where the turn sends no slots: map; one with no default is
// not checked; lint-expect-accepted-values).
func mayRefuseSlots(t *Turn, decls []*story.Intent) bool {
	if slices.ContainsFunc(t.Intent.Slots, func(kv KV) bool { return isTemplate(kv.Value) }) {
		return true
	}
	return slices.ContainsFunc(decls, func(it *story.Intent) bool {
		for sn, s := range it.Slots {
			if s != nil && len(s.Values) > 0 && !valueAccepted(t, sn, s) {
				return true
			}
		}
		return false
	})
}

// valueAccepted reports whether slot sn, declared s with values:, is
// certainly accepted: the value t sends, else s's default, is one of them
// as both engines compare (fmt's %v, a whole float as its integer), or t
// leaves out a slot with no default. A null, a template default, a list
// or a map is not judged accepted.
func valueAccepted(t *Turn, sn string, s *story.Slot) bool {
	v := s.Default
	if i := slices.IndexFunc(t.Intent.Slots, func(kv KV) bool { return kv.Key == sn }); i >= 0 {
		v = t.Intent.Slots[i].Value
	} else if v == nil {
		return true
	}
	switch v.(type) {
	case nil, []any, map[string]any:
		return false
	}
	return !hasTemplate(v) && slices.Contains(valueTexts(s.Values), fmt.Sprint(yamlWhole(jsonvalue.Normalize(v))))
}

// untakenExpectOther warns at an expect_error turn naming a rejection
// code other than INTENT_NOT_ALLOWED_IN_STATE for a declared intent that
// the plain state the fixture certainly rests in, and its ancestors, do
// not take (no on: arm for it, no "*"): the allowed-set check refuses it
// INTENT_NOT_ALLOWED_IN_STATE before any slot or guard is looked at
// (story-runtime §1.4), so the code differs and the turn always fails
// (conformance lint-expect-accepted o). It reports whether it warned.
func (l *fixtureLint) untakenExpectOther(t *Turn, r rest) bool {
	ix, ee := l.ix, t.ExpectError
	if ee == nil || ee.Code == engine.CodeNotAllowed || !slices.Contains(rejectionCodes, ee.Code) || t.Intent == nil || ix.unfolded {
		return false
	}
	name := t.Intent.Name
	if name == "" || !ix.intents[name] || len(ix.aliases[name]) > 0 || r.at == nil || len(r.alt) > 0 || r.exit != "" || inParallel(r.at) || takes(r.at, name) {
		return false
	}
	l.warn(ee.Pos, ruleErrorCode, "turns[%d].expect_error: code %s, but intent %q is not taken at %q, where %s (it and its ancestors take: %s): both engines refuse it %s before any slot or guard is checked, so the turn always fails; expect_error: {code: %s}, or fix the turns before it",
		t.Index, ee.Code, name, r.at.Path, r.from, takenList(r.at), engine.CodeNotAllowed, engine.CodeNotAllowed)
	return true
}
