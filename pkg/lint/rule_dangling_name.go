package lint

import (
	"fmt"
	"slices"

	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

var ruleDanglingName = &Rule{ID: "dangling-name", Severity: diag.Warning, LintOnly: true,
	Summary: "a name the existing engine loads without looking it up names nothing: a proposal's execute.on_success (no such state), a state's menu: entry (no such intent), a choice item's intent with no on: arm in its state",
	Example: "a: {menu: [lokk], on: {look: [{target: .}]}}"}

// checkDanglingNames warns at names upstream's loader accepts unchecked
// that can only fail later (docs/compat/app-schema.md); inside a parallel
// state another region may handle a choice's intent, so those are skipped.
func checkDanglingNames(c *checker) {
	for _, name := range sortedMapKeys(c.st.Proposals) {
		pr := c.st.Proposals[name]
		if pr == nil || pr.Execute == nil {
			continue
		}
		to, ok := pr.Execute.OnSuccess.(string)
		if !ok || to == "" || to == "stay" || to == "back" || story.IsTemplated(to) || c.st.StateAt(to) != nil {
			continue
		}
		c.rep.Warnf(pr.Execute.Pos, ruleDanglingName, "proposal %q execute.on_success %q is neither stay, back nor a state (the existing engine does not check it)%s", name, to, c.didYouMean(to, c.statePaths()))
	}
	for _, s := range c.states() {
		for _, m := range s.Menu() {
			if m != "" && c.lookupIntent(s, m, true) == nil {
				c.rep.Warnf(s.PosOf("menu"), ruleDanglingName, "state %q: menu: %q is not a declared intent, so it is never listed (the existing engine does not check it)", s.Path, m)
			}
		}
		if s.Parallel || inParallel(s) {
			continue
		}
		story.EachChoice(s, func(el *story.ViewElement, where string, _ int) {
			body, _ := el.Body.(map[string]any)
			var names []string
			if in, ok := body["intent"].(string); ok {
				names = append(names, in)
			}
			items, _ := body["items"].([]any)
			for _, it := range items {
				m, _ := it.(map[string]any)
				if in, ok := m["intent"].(string); ok {
					names = append(names, in)
				}
			}
			seen := map[string]bool{}
			for _, in := range names {
				if in == "" || seen[in] || story.IsTemplated(in) || handledHere(s, in) || c.lookupIntent(s, in, true) == nil {
					continue // an undeclared one is the view rule's error
				}
				seen[in] = true
				c.rep.Warnf(or(el.StringPos(in), el.Pos), ruleDanglingName, "%s: intent %q has no on: arm in state %q or its ancestors, so picking it is refused (INTENT_NOT_ALLOWED_IN_STATE); add an arm%s", where, in, s.Path, armHint(s))
			}
		})
	}
}

// handledHere: an arm of s or an ancestor takes intent (or "*").
func handledHere(s *story.State, intent string) bool {
	return nearest(s, func(s *story.State) bool { return s.HasOn(intent) || s.HasOn("*") }) != nil
}

// armHint names the intents s does handle, for the message.
func armHint(s *story.State) string {
	var have []string
	for cur := s; cur != nil; cur = cur.Parent {
		for _, on := range cur.On {
			if !slices.Contains(have, on.Intent) {
				have = append(have, on.Intent)
			}
		}
	}
	if len(have) == 0 {
		return ""
	}
	slices.Sort(have)
	return fmt.Sprintf(" (it handles %v)", have)
}
