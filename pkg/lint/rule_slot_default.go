package lint

import (
	"fmt"
	"slices"
	"strings"

	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

var ruleSlotDefault = &Rule{ID: "slot-default", Severity: diag.Warning, LintOnly: true,
	Summary: "a slot default that never fills the slot (the slot is required) or that refuses every call leaving the slot out (it is not one of the slot's values:)",
	Example: "intents: {go: {slots: {k: {required: true, default: 3}}}}"}

// checkSlotDefaults warns at a slot default that never applies as meant:
// on a required slot, or outside its values: (story-runtime §1.4,
// conformance intent-slot-defaults).
func checkSlotDefaults(c *checker) {
	check := func(where string, in *story.Intent) {
		for _, name := range in.SlotOrder {
			sl := in.Slots[name]
			if sl == nil || sl.Default == nil {
				continue
			}
			if sl.Required {
				c.rep.Warnf(sl.Pos, ruleSlotDefault, "%sintent %q slot %q: required: true with a default: the default never applies — a call without %s is missing it (MISSING_SLOTS; a clarification on the orchestrator path). Drop required: or the default",
					where, in.Name, name, name)
				continue
			}
			if len(sl.Values) == 0 {
				continue
			}
			vals := valueTexts(sl.Values)
			if d := fmt.Sprint(sl.Default); !slices.Contains(vals, d) {
				c.rep.Warnf(sl.Pos, ruleSlotDefault, "%sintent %q slot %q: default %q is not one of values: [%s]: every call that leaves %s out is refused (INVALID_SLOT_VALUE). Make the default one of the values",
					where, in.Name, name, d, strings.Join(vals, " "), name)
			}
		}
	}
	for _, n := range c.st.IntentOrder {
		if in := c.st.Intents[n]; in != nil {
			check("", in)
		}
	}
	for _, s := range c.states() {
		for _, n := range s.IntentOrder {
			if in := s.Intents[n]; in != nil {
				check(fmt.Sprintf("state %q: ", s.Path), in)
			}
		}
	}
}

// valueTexts is each of an enum's values: as text.
func valueTexts(vs []any) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = fmt.Sprint(v)
	}
	return out
}
