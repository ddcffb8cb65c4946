package flowtest

import (
	"slices"

	"kitsoki/pkg/story"
)

// slotTypes warns at a turn's slot value written as a string (or null)
// where every declaration of the intent types the slot int, float or
// bool: neither engine checks a slot's type: (story-runtime §1.4; kitsoki
// only under --strict), so the text reaches the arc as written, and a
// guard comparing it as a number fails the turn (probed with the existing
// engine: k: "abc" on a type: int slot read by `slots.k > 2` fails with
// "invalid operation: string > int", which aborts its whole test run). A
// string the slot's values: list as text is what the story holds (type:
// bool, values: [yes, no]): writing true there is refused (INVALID_SLOT_VALUE).
func (l *fixtureLint) slotTypes(t *Turn, decls []*story.Intent) {
	if len(decls) == 0 {
		return
	}
	for _, kv := range t.Intent.Slots {
		kind := ""
		for i, it := range decls {
			k := ""
			if sl := it.Slots[kv.Key]; sl != nil {
				k = (&story.WorldVar{Type: sl.Type}).Kind()
			}
			if i > 0 && k != kind {
				kind = ""
				break
			}
			kind = k
		}
		if kind != "int" && kind != "float" && kind != "bool" {
			continue
		}
		s, isText := kv.Value.(string)
		if !isText || isTemplate(kv.Value) || listedText(decls, kv.Key, s) {
			continue
		}
		l.warn(kv.Pos, ruleSlotType, "turns[%d]: slot %q value %q is a string, and the intent declares %s type: %s; neither engine converts it (a slot's type: is not checked), so a guard or template that reads slots.%s as a%s %s fails the turn (invalid operation) or compares false; %s, or declare the slot with the type it holds",
			t.Index, kv.Key, s, kv.Key, decls[0].Slots[kv.Key].Type, kv.Key, article(kind), kind, textFix(s, kind))
	}
}

// listedText reports whether a declaration of intent slot key lists s as
// text among its values:.
func listedText(decls []*story.Intent, key, s string) bool {
	for _, it := range decls {
		if sl := it.Slots[key]; sl != nil && slices.Contains(sl.Values, any(s)) {
			return true
		}
	}
	return false
}
