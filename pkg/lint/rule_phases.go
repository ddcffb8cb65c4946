package lint

import (
	"fmt"
	"strings"

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
	taken := map[string]phaseOwner{}
	for _, st := range c.st.States {
		taken[st.Name] = phaseOwner{}
	}
	var required []string
	for _, pn := range sortedMapKeys(tpl.Parameters) {
		if pp := tpl.Parameters[pn]; pp != nil && pp.Required && pp.Default == nil && pn != "id" {
			required = append(required, pn)
		}
	}
	keys := newPhaseKeys(tpl)
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
		for _, pn := range required {
			if _, ok := node.Params[pn]; !ok {
				c.rep.Errf(node.Pos, story.RulePhases, "phases.graph[%q]: missing required template parameter %q", id, pn)
				missing = true
			}
		}
		if !missing {
			keys.check(c, id, node, taken)
		}
	}
}

// phaseOwner is who has a state name: the story's own state (id "") or
// the template state key of graph entry id.
type phaseOwner struct{ id, key string }

func (o phaseOwner) String() string {
	if o.id == "" {
		return "the story's own state"
	}
	return fmt.Sprintf("phases.graph[%q]'s %q", o.id, o.key)
}

// phaseKeys are the top-level template state keys with the {name} holes
// of each, found once for every graph entry, and the text of each
// parameter's default.
type phaseKeys struct {
	states   []*story.State
	holes    [][][]int // PhaseParamRe's submatch indexes in states[i].Name
	defaults map[string]string
}

func newPhaseKeys(tpl *story.PhaseTemplate) *phaseKeys {
	k := &phaseKeys{defaults: map[string]string{}}
	for n, pp := range tpl.Parameters {
		if pp != nil && pp.Default != nil {
			k.defaults[n] = fmt.Sprint(pp.Default)
		}
	}
	for _, ts := range tpl.States {
		if ts != nil {
			k.states = append(k.states, ts)
			k.holes = append(k.holes, story.PhaseParamRe.Get().FindAllStringSubmatchIndex(ts.Name, -1))
		}
	}
	return k
}

// value is the text of parameter n for graph entry id: the graph key for
// {id}, whatever a default or the entry says, else the entry's value, else
// the template's default.
func (k *phaseKeys) value(id string, node *story.PhaseNode, n string) (string, bool) {
	if n == "id" {
		return id, true
	}
	if v, ok := node.Params[n]; ok {
		if s, ok := v.(string); ok {
			return s, true
		}
		return fmt.Sprint(v), true
	}
	v, ok := k.defaults[n]
	return v, ok
}

// check: every {name} of a top-level template state key has a value in
// graph entry id; a generated name already taken is warned
// (docs/compat/phases.md).
func (k *phaseKeys) check(c *checker, id string, node *story.PhaseNode, taken map[string]phaseOwner) {
	var b strings.Builder
	for i, ts := range k.states {
		bad := false
		b.Reset()
		last := 0
		for _, h := range k.holes[i] {
			n := ts.Name[h[2]:h[3]]
			v, ok := k.value(id, node, n)
			if !ok {
				c.rep.Errf(ts.Pos, story.RulePhases, "phases.graph[%q]: state name %q: unknown parameter %q (declare it under parameters: with a default, or give it in the graph entry)", id, ts.Name, n)
				bad = true
				continue
			}
			b.WriteString(ts.Name[last:h[0]])
			b.WriteString(v)
			last = h[1]
		}
		if bad {
			continue
		}
		b.WriteString(ts.Name[last:])
		name := b.String()
		if who, dup := taken[name]; dup {
			c.rep.Warnf(ts.Pos, story.RulePhases, "phases.graph[%q]: template state %q expands to %q, which %s already is; one of them is dropped without a word (the story's own state wins, then the phase id and the template key that sort first); give the key {id} or a parameter that differs per phase", id, ts.Name, name, who)
			continue
		}
		taken[name] = phaseOwner{id, ts.Name}
	}
}
