package phases

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"

	"kitsoki/pkg/story"
)

// Expand replaces st's phases: block with the concrete states it stands
// for (upstream's load stage 3, expandPhases). It has the signature of
// fold.Options.Phases: st is the fold's private copy and is edited in
// place. For each phases.graph entry, in declaration order, every state
// of the template is instantiated with {param} substituted in its state
// keys and {{ tpl.<param> }} / {{ phase.next.<arc> }} everywhere else; the
// entry's on_enter: replaces the on_enter: of the phase's <id>_executing
// state (a template without one drops it), as upstream does; the
// checkpoint_intents: are merged into each generated <id>_awaiting_reply
// state; cycle_budgets: guard the <id>_executing state's arcs
// ([applyBudgets]). On success st.Phases is nil; on error st is
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
		ps.add(ph.Pos, "phases.template %q: not found in phase_templates (declared: %s)", ph.Template, strings.Join(slices.Sorted(maps.Keys(st.PhaseTemplates)), ", "))
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
		if len(node.OnEnter) > 0 {
			for _, s := range mine {
				if s.Name == id+"_executing" {
					s.OnEnter = c.value(reflect.ValueOf(node.OnEnter), story.Pos{}).Interface().([]*story.Effect)
				}
			}
		}
		applyBudgets(id, node.CycleBudgets, mine)
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
// parameters: id, every key the entry gives (declared or not: upstream's
// name pass uses extras too), and the defaults of the declared parameters
// it does not give. A declared parameter with neither has no value: its
// references stay as written.
func bind(id string, node *story.PhaseNode, tpl *story.PhaseTemplate, where string, ps *problems) *binding {
	b := &binding{id: id, params: map[string]any{"id": id}, next: node.Next, probs: ps, where: where}
	ok := true
	for _, name := range slices.Sorted(maps.Keys(tpl.Parameters)) {
		pp := tpl.Parameters[name]
		if _, given := node.Params[name]; given || name == "id" || pp == nil {
			continue
		}
		switch {
		case pp.Default != nil:
			b.params[name] = pp.Default
		case pp.Required:
			ps.add(node.Pos, "%s: missing required template parameter %q", where, name)
			ok = false
		}
	}
	maps.Copy(b.params, node.Params)
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
	var out []string
	for _, id := range slices.Concat(ph.Order, slices.Sorted(maps.Keys(ph.Graph))) {
		if _, ok := ph.Graph[id]; ok && !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	return out
}
