package phases

import (
	"fmt"
	"maps"
	"slices"

	"kitsoki/pkg/story"
)

// Expand replaces st's phases: block with the concrete states it stands
// for (upstream's load stage 3, expandPhases). It has the signature of
// fold.Options.Phases: st is the fold's private copy and is edited in
// place. For each phases.graph entry, in declaration order, every state
// of the template is instantiated with {param} / {{ tpl.<param> }} /
// {{ phase.next.<arc> }} / {{ phase.id }} substituted from the entry; the
// entry's on_enter: runs first in the phase's first state; the
// checkpoint_intents: are merged into each generated <id>_awaiting_reply
// state. cycle_budgets: is accepted and ignored, as upstream does
// (docs/compat/phases.md). On success st.Phases is nil; on error st is
// left unchanged and the error is an *Error naming every problem.
func Expand(st *story.Story) error {
	if st == nil || st.Phases == nil {
		return nil
	}
	ph := st.Phases
	ps := &problems{}
	if len(st.PhaseTemplates) == 0 {
		ps.add(ph.Pos, "phases: declared but no phase_templates: present")
		return ps.err()
	}
	if ph.Template == "" {
		ps.add(ph.Pos, "phases.template: required")
		return ps.err()
	}
	tpl := st.PhaseTemplates[ph.Template]
	if tpl == nil {
		ps.add(ph.Pos, "phases.template %q: not found in phase_templates (declared: %s)", ph.Template, declared(st.PhaseTemplates))
		return ps.err()
	}

	taken := map[string]string{} // top-level name -> who declared it
	for _, s := range st.States {
		taken[s.Name] = "the story"
	}
	var generated []*story.State
	for _, id := range order(ph) {
		node := ph.Graph[id]
		where := fmt.Sprintf("phases.graph[%q]", id)
		if node == nil {
			ps.add(ph.Pos, "%s: empty entry", where)
			continue
		}
		b := bind(id, node, tpl, where, ps)
		if b == nil {
			continue
		}
		c := &copier{b: b}
		var mine []*story.State
		for _, ts := range tpl.States {
			if ts == nil {
				continue
			}
			s := c.state(ts, nil)
			if who, dup := taken[s.Name]; dup {
				ps.add(ts.Pos, "%s: template state %q expands to %q, which %s already declares (a state key needs {id} or a parameter that differs per phase)", where, ts.Name, s.Name, who)
				continue
			}
			taken[s.Name] = where
			mine = append(mine, s)
		}
		if len(mine) > 0 && len(node.OnEnter) > 0 {
			first := mine[0]
			first.OnEnter = append(c.effects(node.OnEnter), first.OnEnter...)
		}
		for _, s := range mine {
			mergeCheckpoints(s, id+"_awaiting_reply", st.CheckpointIntents)
		}
		generated = append(generated, mine...)
	}
	if err := ps.err(); err != nil {
		return err
	}
	st.States = append(st.States, generated...)
	st.Phases = nil
	return nil
}

// bind builds the substitution of one graph entry, enforcing required
// parameters.
func bind(id string, node *story.PhaseNode, tpl *story.PhaseTemplate, where string, ps *problems) *binding {
	b := &binding{id: id, params: map[string]any{"id": id, "phase_id": id}, unset: map[string]bool{},
		next: node.Next, probs: ps, where: where}
	ok := true
	for _, name := range slices.Sorted(maps.Keys(tpl.Parameters)) {
		pp := tpl.Parameters[name]
		if v, given := node.Params[name]; given {
			b.params[name] = v
			continue
		}
		if name == "id" || name == "phase_id" {
			continue
		}
		switch {
		case pp != nil && pp.Default != nil:
			b.params[name] = pp.Default
		case pp != nil && pp.Required:
			ps.add(node.Pos, "%s: missing required template parameter %q", where, name)
			ok = false
		default:
			b.unset[name] = true
		}
	}
	for name, v := range node.Params {
		b.params[name] = v // undeclared extras substitute too (upstream's name pass uses them)
	}
	if !ok {
		return nil
	}
	return b
}

// mergeCheckpoints adds the checkpoint intents to every state of the
// subtree named name; an intent the state declares itself wins.
func mergeCheckpoints(s *story.State, name string, cps map[string]*story.Intent) {
	if len(cps) == 0 {
		return
	}
	if s.Name == name {
		if s.Intents == nil {
			s.Intents = map[string]*story.Intent{}
		}
		for _, n := range slices.Sorted(maps.Keys(cps)) {
			if _, own := s.Intents[n]; own || cps[n] == nil {
				continue
			}
			cp := *cps[n]
			s.Intents[n] = &cp
			s.IntentOrder = append(s.IntentOrder, n)
		}
	}
	for _, ch := range s.Children {
		mergeCheckpoints(ch, name, cps)
	}
}

// order is the graph's declaration order (Order), falling back to sorted
// ids for entries built without it.
func order(ph *story.Phases) []string {
	seen := map[string]bool{}
	var out []string
	for _, id := range ph.Order {
		if _, ok := ph.Graph[id]; ok && !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	for _, id := range slices.Sorted(maps.Keys(ph.Graph)) {
		if !seen[id] {
			out = append(out, id)
		}
	}
	return out
}

func declared(m map[string]*story.PhaseTemplate) string {
	if len(m) == 0 {
		return "none"
	}
	ks := slices.Sorted(maps.Keys(m))
	out := ""
	for i, k := range ks {
		if i > 0 {
			out += ", "
		}
		out += k
	}
	return out
}
