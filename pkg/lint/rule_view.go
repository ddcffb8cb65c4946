package lint

import (
	"kitsoki/pkg/story"
)

// checkViews: choice elements name declared intents and slots (reference
// §9.6 "Choice cross-references"); only one choice per view. Structural
// view errors are reported while parsing.
func checkViews(c *checker) {
	for _, s := range c.states() {
		story.EachChoice(s, func(el *story.ViewElement, where string, nth int) {
			if nth > 1 {
				c.rep.Errf(el.Pos, story.RuleView, "%s", story.TooManyChoices(where))
			}
			c.checkChoice(s, el, where)
		})
	}
}

func (c *checker) checkChoice(s *story.State, el *story.ViewElement, where string) {
	body, _ := el.Body.(map[string]any)
	if body == nil {
		return
	}
	if in, ok := body["intent"].(string); ok && in != "" && !story.IsTemplated(in) && !c.intentKnown(s, in, true) {
		c.rep.Errf(el.Pos, story.RuleView, "%s: intent %q not declared in state or global intents", where, in)
	}
	c.checkChoiceShape(s, el, where, body)
	items, _ := body["items"].([]any)
	for j, it := range items {
		m, _ := it.(map[string]any)
		in, _ := m["intent"].(string)
		if in == "" || story.IsTemplated(in) {
			continue
		}
		decl := c.lookupIntent(s, in, true)
		if decl == nil {
			if !c.intentKnown(s, in, true) {
				c.rep.Errf(or(el.StringPos(in), el.Pos), story.RuleView, "%s: items[%d]: intent %q not declared in state or global intents", where, j, in)
			}
			continue
		}
		if slots, ok := m["slots"].(map[string]any); ok {
			for _, k := range sortedMapKeys(slots) {
				if decl.Slots[k] == nil {
					c.rep.Errf(el.Pos, story.RuleView, "%s: items[%d].slots: key %q is not a declared slot of intent %q", where, j, k, in)
				}
			}
		}
		if param, ok := m["param"].(map[string]any); ok {
			if sl, _ := param["slot"].(string); sl != "" && decl.Slots[sl] == nil {
				c.rep.Errf(el.Pos, story.RuleView, "%s: items[%d].param.slot: %q is not a declared slot of intent %q", where, j, sl, in)
			}
		}
	}
}
