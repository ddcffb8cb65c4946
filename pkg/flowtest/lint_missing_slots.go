package flowtest

import (
	"slices"

	"kitsoki/pkg/engine"
	"kitsoki/pkg/story"
)

// missingNever warns at an expect_error whose missing_slots names a slot
// no rejection of the turn lists (conformance lint-missing-slots). Only
// the legacy path checks missing_slots, each against the rejection's own
// list, which only a MISSING_SLOTS rejection fills: with another code the
// list is empty, so any entry fails; with MISSING_SLOTS it holds the
// fired intent's required slots the turn leaves out or sends as null, so
// an entry fails that no declaration of the intent requires, or that the
// turn sends with a value (a {{ }} template too: the legacy path sends it
// as written). Not judged on a turn a recording answers (input:) or
// after one, for an intent declared nowhere (a "*" arm takes it) or
// spelled bare for an imported child, or on an unfolded story. It
// reports whether it warned.
func (l *fixtureLint) missingNever(t *Turn) bool {
	ix, ee := l.ix, t.ExpectError
	if len(ee.MissingSlots) == 0 || l.fx.Orchestrated() || ix.unfolded || t.Intent == nil || t.HasInput || l.inputBefore(t) {
		return false
	}
	if ee.Code != engine.CodeMissingSlots {
		l.warn(ee.Pos, ruleErrorCode, "turns[%d].expect_error: code %s with missing_slots on the legacy path, where only a %s rejection lists missing slots (any other lists none): the turn always fails (expect_error.missing_slots: %q not in []); drop missing_slots, or expect code %s",
			t.Index, ee.Code, engine.CodeMissingSlots, ee.MissingSlots[0], engine.CodeMissingSlots)
		return true
	}
	name := t.Intent.Name
	decls := ix.decls[name]
	if len(decls) == 0 || len(ix.aliases[name]) > 0 || ix.story.CheckpointIntents[name] != nil {
		return false
	}
	for _, m := range ee.MissingSlots {
		if i := slices.IndexFunc(t.Intent.Slots, func(kv KV) bool { return kv.Key == m }); i >= 0 && t.Intent.Slots[i].Value != nil {
			l.warn(ee.Pos, ruleErrorCode, "turns[%d].expect_error.missing_slots: %q, but the turn sends slot %s with a value, so it is never missing: the turn always fails on the legacy path (expect_error.missing_slots: %q not in [...]); drop it from missing_slots, or leave the slot out",
				t.Index, m, m, m)
			return true
		}
		if !slices.ContainsFunc(decls, func(it *story.Intent) bool { s := it.Slots[m]; return s != nil && s.Required }) {
			l.warn(ee.Pos, ruleErrorCode, "turns[%d].expect_error.missing_slots: %q, but intent %q declares no required slot %s (a MISSING_SLOTS rejection lists only the required slots a turn leaves out or sends as null): the turn always fails on the legacy path (expect_error.missing_slots: %q not in [...]); name a required slot the turn leaves out",
				t.Index, m, name, m, m)
			return true
		}
	}
	return false
}
