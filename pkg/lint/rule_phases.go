package lint

import (
	"kitsoki/pkg/story"
)

// checkPhases: phases: / phase_templates: structure (reference §9.3). The
// expansion itself is not performed (kitsoki run does not execute phases).
func checkPhases(c *checker) {
	ph := c.st.Phases
	if ph == nil {
		return
	}
	if len(c.st.PhaseTemplates) == 0 {
		c.rep.Errf(ph.Pos, story.RulePhases, "phases: declared but no phase_templates: present")
		return
	}
	if ph.Template == "" {
		c.rep.Errf(ph.Pos, story.RulePhases, "phases.template: required")
		return
	}
	tpl := c.st.PhaseTemplates[ph.Template]
	if tpl == nil {
		c.rep.Errf(ph.Pos, story.RulePhases, "phases.template %q: not found in phase_templates", ph.Template)
		return
	}
	for _, id := range ph.Order {
		node := ph.Graph[id]
		for _, pn := range sortedMapKeys(tpl.Parameters) {
			pp := tpl.Parameters[pn]
			if _, ok := node.Params[pn]; !ok && pp.Required && pp.Default == nil && pn != "id" {
				c.rep.Errf(node.Pos, story.RulePhases, "phases.graph[%q]: missing required template parameter %q", id, pn)
			}
		}
	}
}
