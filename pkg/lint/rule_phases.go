package lint

import (
	"fmt"

	"kitsoki/pkg/story"
)

// checkPhases: phases: / phase_templates: structure (reference §9.3).
func checkPhases(c *checker) {
	ph := c.st.Phases
	if ph == nil {
		return
	}
	if len(ph.Graph) == 0 && len(ph.Order) == 0 {
		c.rep.Warnf(ph.Pos, story.RulePhases, "phases: has no graph: entries, so nothing is expanded and the block is ignored (upstream ignores it too); add graph: {<id>: {...}} or remove phases:")
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
	taken := map[string]string{}
	for _, st := range c.st.States {
		taken[st.Name] = "the story's own state"
	}
	for _, id := range ph.Order {
		node := ph.Graph[id]
		if node == nil {
			continue // the parser's "empty entry"
		}
		for _, bu := range node.Budgets() {
			if bu.Limit < 1 {
				c.rep.Errf(node.Pos, story.RulePhases, "phases.graph[%q]: cycle_budgets[%q] must be > 0", id, bu.Arc)
			}
		}
		missing := false
		for _, pn := range sortedMapKeys(tpl.Parameters) {
			pp := tpl.Parameters[pn]
			if _, ok := node.Params[pn]; !ok && pp.Required && pp.Default == nil && pn != "id" {
				c.rep.Errf(node.Pos, story.RulePhases, "phases.graph[%q]: missing required template parameter %q", id, pn)
				missing = true
			}
		}
		if !missing {
			checkPhaseKeys(c, id, node, tpl, taken)
		}
	}
}

// checkPhaseKeys: every {name} of a top-level template state key has a
// value in graph entry id; a generated name already taken is warned
// (docs/compat/phases.md).
func checkPhaseKeys(c *checker, id string, node *story.PhaseNode, tpl *story.PhaseTemplate, taken map[string]string) {
	vals := map[string]string{}
	for n, pp := range tpl.Parameters {
		if pp != nil && pp.Default != nil {
			vals[n] = fmt.Sprint(pp.Default)
		}
	}
	for k, v := range node.Params {
		vals[k] = fmt.Sprint(v)
	}
	vals["id"] = id // the graph key, whatever a default or the entry says
	for _, ts := range tpl.States {
		if ts == nil {
			continue
		}
		bad := false
		name := story.PhaseParamRe.ReplaceAllStringFunc(ts.Name, func(m string) string {
			n := m[1 : len(m)-1]
			if v, ok := vals[n]; ok {
				return v
			}
			c.rep.Errf(ts.Pos, story.RulePhases, "phases.graph[%q]: state name %q: unknown parameter %q (declare it under parameters: with a default, or give it in the graph entry)", id, ts.Name, n)
			bad = true
			return m
		})
		if bad {
			continue
		}
		if who, dup := taken[name]; dup {
			c.rep.Warnf(ts.Pos, story.RulePhases, "phases.graph[%q]: template state %q expands to %q, which %s already is; one of them is dropped without a word (the story's own state wins, then the phase id and the template key that sort first); give the key {id} or a parameter that differs per phase", id, ts.Name, name, who)
			continue
		}
		taken[name] = fmt.Sprintf("phases.graph[%q]'s %q", id, ts.Name)
	}
}
