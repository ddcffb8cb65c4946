package lint

import (
	"cmp"
	"slices"

	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

var ruleSelection = &Rule{ID: "selection", Severity: diag.Warning, LintOnly: true,
	Summary: "selection: blocks: known keys, evidence file exists",
	Example: "selection: {profile: fast, evidence: evals/missing.json}"}

// checkSelection: selection: blocks name an evidence file that exists and
// a known effort (pkg/eval checks the evidence itself).
func checkSelection(c *checker) {
	c.eachEffect(func(e *story.Effect, site effSite) {
		sel := e.Selection()
		if sel == nil {
			return
		}
		if sel.Evidence != "" && !story.IsTemplated(sel.Evidence) {
			if _, ok := c.existing(sel.Evidence); !ok {
				c.rep.WarnAt(cmp.Or(sel.Keys["evidence"], sel.Pos), site.Place(), ruleSelection, "%s: selection.evidence %q: file not found (paths are relative to the story directory)", site.String(), sel.Evidence)
			}
		}
		if sel.Effort != "" && !slices.Contains(story.ValidEfforts, sel.Effort) {
			c.rep.WarnAt(cmp.Or(sel.Keys["effort"], sel.Pos), site.Place(), ruleSelection, "%s: selection.effort %q is not one of low, medium, high, xhigh, max", site.String(), sel.Effort)
		}
		if agentVerb(e.Invoke) == "" {
			c.rep.WarnAt(sel.Pos, site.Place(), ruleSelection, "%s: selection: pins a model for an agent call but this effect does not invoke host.agent.*", site.String())
		}
	})
}
