package flowtest

import (
	"fmt"
	"slices"
	"strings"

	"kitsoki/internal/jsonvalue"
)

// slotsExpected warns at a turn's expect_slots entry that certainly
// fails (conformance lint-expect-slots). Both engines compare each entry
// with the slot map the turn sent as validation leaves it (assert.go
// slotChecks): a turn that sends no slots: map (or fires no intent)
// compares every entry with null; a slot it sends as written (no {{ }}
// template on the orchestrator path, which renders top-level strings)
// with that value; a slot it leaves out with the default the fired
// intent declares for it, or null where it declares none (slotDefault;
// where that is not certain, null only if no intent of the story
// declares a slot of that name with a default). A turn with expect_error
// checks no slots, nor is one whose input: a recording answers judged,
// nor any turn after one (a missing recording skips the fixture), nor a
// story whose imports did not fold. It reports whether it warned.
func (l *fixtureLint) slotsExpected(t *Turn) bool {
	if len(t.ExpectSlots) == 0 || t.ExpectError != nil || t.HasInput || l.ix.unfolded || l.inputBefore(t) {
		return false
	}
	var sent []KV
	if t.Intent != nil {
		if l.ix.story.CheckpointIntents[t.Intent.Name] != nil {
			return false // an engine-made intent: its slots are not declared here
		}
		sent = t.Intent.Slots
	}
	orch := l.fx.Orchestrated()
	for _, kv := range t.ExpectSlots {
		got, how, ok := l.slotSent(t, sent, kv.Key, orch)
		if !ok || equal(got, kv.Value) || equal(yamlWhole(got), kv.Value) {
			continue
		}
		l.warn(kv.Pos, ruleSlotsExpect, "turns[%d].expect_slots[%q]: %s, but the turn %s: the assertion fails on both engines (expect_slots[%q]: got %s, want %s); expect the value the turn sends, or send it",
			t.Index, kv.Key, clip(show(kv.Value)), how, kv.Key, clip(show(got)), clip(show(kv.Value)))
		return true
	}
	return false
}

// slotSent is the value of slot key the turn certainly sends (sent: its
// intent's slots), with how the lint knows it; ok is false where it is
// not certain.
func (l *fixtureLint) slotSent(t *Turn, sent []KV, key string, orch bool) (any, string, bool) {
	switch {
	case t.Intent == nil:
		return nil, "fires no intent, so it sends no slots", true
	case t.Intent.Slots == nil:
		return nil, "sends no slots: map", true
	}
	i := slices.IndexFunc(sent, func(kv KV) bool { return kv.Key == key })
	if i < 0 {
		if d, how, ok := l.slotDefault(t.Intent.Name, key); ok {
			return d, "leaves slot " + key + " out, " + how, true
		}
		if l.slotDefaulted(key) {
			return nil, "", false
		}
		return nil, "leaves slot " + key + " out (no intent of the story declares a default for it)", true
	}
	v := sent[i].Value
	if s, isText := v.(string); isText && orch && strings.Contains(s, "{{") {
		return nil, "", false
	}
	return v, "sends slot " + key + " as written", true
}

// slotDefault is the value validation leaves in slot key of intent name
// when a turn sending a slots: map leaves the slot out: the default every
// declaration of the intent gives it (null where none declares the slot
// or its default, or requires it: a required slot left out takes no
// default, the turn refused on the legacy path and a clarification on the
// orchestrator's, which compares it as null), with how the lint knows it.
// ok is false where that is not certain: an intent declared nowhere (a
// "*" arm takes it, and no slot is checked), a bare spelling of an
// imported child's intent, declarations that differ, or a default that
// is a template or not finite.
func (l *fixtureLint) slotDefault(name, key string) (v any, how string, ok bool) {
	decls := l.ix.decls[name]
	if len(decls) == 0 || len(l.ix.aliases[name]) > 0 {
		return nil, "", false
	}
	for i, it := range decls {
		var d any
		if sl := it.Slots[key]; sl != nil && !sl.Required {
			if hasTemplate(sl.Default) || jsonvalue.HasNonFinite(sl.Default) {
				return nil, "", false
			}
			d = jsonvalue.Normalize(sl.Default)
		}
		if i > 0 && !equal(d, v) {
			return nil, "", false
		}
		v = d
	}
	if v == nil {
		return nil, fmt.Sprintf("and intent %q declares no default for it that applies (a required slot takes none)", name), true
	}
	return v, fmt.Sprintf("so validation writes intent %q's default %s", name, clip(show(v))), true
}

// slotDefaulted reports whether some intent of the story declares a slot
// named key with a default.
func (l *fixtureLint) slotDefaulted(key string) bool {
	for _, decls := range l.ix.decls {
		for _, it := range decls {
			if sl := it.Slots[key]; sl != nil && sl.Default != nil {
				return true
			}
		}
	}
	return false
}

// inputBefore reports whether a turn before t is driven by a recording
// (input:), which may skip the fixture before t runs.
func (l *fixtureLint) inputBefore(t *Turn) bool {
	for _, u := range l.fx.Turns {
		if u == t {
			return false
		}
		if u.HasInput {
			return true
		}
	}
	return false
}
