package story

import (
	"fmt"
)

// checkViews: choice elements name declared intents and slots (reference
// §9.6 "Choice cross-references"); only one choice per view. Structural
// view errors are reported while parsing.
func checkViews(c *checker) {
	for _, s := range c.states() {
		eachChoice(s, func(el *ViewElement, where string, nth int) {
			if nth > 1 {
				reportChoiceCount(c.rep, el, where)
			}
			c.checkChoice(s, el, where)
		})
	}
}

// eachChoice calls fn with each choice element of s's view and of its
// transitions' views, where naming it in messages and nth counting the
// choices of its view from 1.
func eachChoice(s *State, fn func(el *ViewElement, where string, nth int)) {
	each := func(v *View, arc bool, in string) {
		if v == nil {
			return
		}
		nth := 0
		for i, el := range v.Elements {
			if el.Kind != "choice" {
				continue
			}
			nth++
			prefix := ""
			if arc {
				prefix = fmt.Sprintf("intent %q: transition ", in)
			}
			fn(el, fmt.Sprintf("state %q: %sview[%d] (choice)", s.Path, prefix, i), nth)
		}
	}
	each(s.View, false, "")
	for _, on := range s.On {
		for _, t := range on.Arms {
			each(t.View(), true, on.Intent)
		}
	}
}

// reportChoiceCount reports a view's second or later choice element.
func reportChoiceCount(rep *reporter, el *ViewElement, where string) {
	rep.errf(el.Pos, ruleView, "%s: only one choice element per view is allowed", where)
}

func (c *checker) checkChoice(s *State, el *ViewElement, where string) {
	body, _ := el.Body.(map[string]any)
	if body == nil {
		return
	}
	if in, ok := body["intent"].(string); ok && in != "" && !isTemplated(in) && !c.intentKnown(s, in, true) {
		c.rep.errf(el.Pos, ruleView, "%s: intent %q not declared in state or global intents", where, in)
	}
	items, _ := body["items"].([]any)
	for j, it := range items {
		m, _ := it.(map[string]any)
		in, _ := m["intent"].(string)
		if in == "" || isTemplated(in) {
			continue
		}
		decl := c.lookupIntent(s, in, true)
		if decl == nil {
			if !c.intentKnown(s, in, true) {
				c.rep.errf(or(el.StringPos(in), el.Pos), ruleView, "%s: items[%d]: intent %q not declared in state or global intents", where, j, in)
			}
			continue
		}
		if slots, ok := m["slots"].(map[string]any); ok {
			for _, k := range sortedMapKeys(slots) {
				if decl.Slots[k] == nil {
					c.rep.errf(el.Pos, ruleView, "%s: items[%d].slots: key %q is not a declared slot of intent %q", where, j, k, in)
				}
			}
		}
		if param, ok := m["param"].(map[string]any); ok {
			if sl, _ := param["slot"].(string); sl != "" && decl.Slots[sl] == nil {
				c.rep.errf(el.Pos, ruleView, "%s: items[%d].param.slot: %q is not a declared slot of intent %q", where, j, sl, in)
			}
		}
	}
}
