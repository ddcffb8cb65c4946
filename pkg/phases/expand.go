package phases

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"

	"kitsoki/pkg/story"
)

// Expand replaces st's phases: block, in place, with the concrete states it
// stands for (upstream's expandPhases; the signature of
// fold.Options.Phases). Each graph entry instantiates every template
// state with its parameters substituted; its on_enter: replaces that of
// <id>_executing; checkpoint_intents: are merged into each
// <id>_awaiting_reply; cycle_budgets: guard <id>_executing's arcs. On
// error st is unchanged and the error is an *Error naming every problem.
// It expands within the production bounds (the zero [Options]).
func Expand(st *story.Story) error { return Options{}.Expand(st) }

// Expand is [Expand] within o's bounds.
func (o Options) Expand(st *story.Story) error { return o.expandInto(st, nil) }

// expandInto is Expand, recording in origin (when set) each kept state's graph id.
func (o Options) expandInto(st *story.Story, origin map[string]string) error {
	if st == nil || st.Phases == nil {
		return nil
	}
	ph := st.Phases
	if len(ph.Graph) == 0 && len(ph.Order) == 0 {
		// Upstream ignores a phases: block without a non-empty graph.
		st.Phases = nil
		return nil
	}
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

	all := o.instantiate(ph, tpl, ps)
	if err := ps.err(); err != nil {
		return err
	}
	byID := slices.SortedFunc(slices.Values(all), func(a, b *phase) int { return strings.Compare(a.id, b.id) })
	kept := keptStates(st.States, byID)
	var generated []*story.State
	for _, p := range all {
		mine := slices.DeleteFunc(slices.Clone(p.mine), func(s *story.State) bool { return !kept[s] })
		for _, s := range mine {
			if len(p.node.OnEnter) > 0 && strings.HasSuffix(s.Name, "_executing") {
				s.OnEnter = p.c.value(reflect.ValueOf(p.node.OnEnter)).Interface().([]*story.Effect)
			}
			if strings.HasSuffix(s.Name, "_awaiting_reply") {
				mergeCheckpoints(s, st.CheckpointIntents)
			}
			if origin != nil {
				origin[s.Name] = p.id
			}
		}
		generated = append(generated, mine...)
	}
	budgetAll(byID, slices.Concat(st.States, generated))
	st.States = append(st.States, generated...)
	st.Phases = nil
	return nil
}

// phase is one graph entry's states and the template key each came from.
type phase struct {
	id   string
	node *story.PhaseNode
	c    *copier
	mine []*story.State
	raw  []string // the template key each of mine came from
}

// instantiate builds every graph entry's states, adding problems to ps.
func (o Options) instantiate(ph *story.Phases, tpl *story.PhaseTemplate, ps *problems) []*phase {
	var all []*phase
	values, bytes := o.Bounds()
	left := &allowance{values: values, bytes: bytes}
	defer func() {
		if left.spent() {
			ps.add(ph.Pos, "%s", tooLarge(len(ph.Graph), values, bytes))
			ps.tooLarge = true
		}
	}()
	for _, id := range order(ph) {
		if left.spent() {
			break // refused: the rest would only be copied to be thrown away
		}
		node := ph.Graph[id]
		where := fmt.Sprintf("phases.graph[%q]", id)
		if node == nil {
			ps.add(ph.Pos, "%s: empty entry", where)
			continue
		}
		for _, bu := range node.Budgets() {
			if bu.Limit < 1 {
				ps.add(node.Pos, "%s: cycle_budgets[%q] must be > 0", where, bu.Arc)
			}
		}
		b := bind(id, node, tpl, where, ps)
		if b == nil {
			continue
		}
		p := &phase{id: id, node: node, c: &copier{b: b, left: left}}
		for _, ts := range tpl.States {
			if ts != nil && !left.spent() {
				p.mine = append(p.mine, p.c.state(ts, nil))
				p.raw = append(p.raw, ts.Name)
			}
		}
		all = append(all, p)
	}
	return all
}

// keptStates is the generated states whose names are free: a taken name is
// silently dropped, as upstream does (the story's own state wins, then the
// phase whose id sorts first, then the template key that sorts first).
func keptStates(own []*story.State, byID []*phase) map[*story.State]bool {
	taken := map[string]bool{}
	for _, s := range own {
		taken[s.Name] = true
	}
	kept := map[*story.State]bool{}
	for _, p := range byID {
		idx := make([]int, len(p.mine))
		for i := range idx {
			idx[i] = i
		}
		slices.SortStableFunc(idx, func(a, b int) int { return strings.Compare(p.raw[a], p.raw[b]) })
		for _, i := range idx {
			if s := p.mine[i]; !taken[s.Name] {
				taken[s.Name] = true
				kept[s] = true
			}
		}
	}
	return kept
}

// budgetAll applies each phase's cycle budgets to whichever state its
// *_executing name ends up as among states.
func budgetAll(byID []*phase, states []*story.State) {
	final := map[string]*story.State{}
	for _, s := range states {
		if _, dup := final[s.Name]; !dup {
			final[s.Name] = s
		}
	}
	for _, p := range byID {
		budgets := p.node.Budgets()
		done := map[string]bool{}
		for _, s := range p.mine {
			if strings.HasSuffix(s.Name, "_executing") && !done[s.Name] {
				done[s.Name] = true
				applyBudgets(p.id, budgets, p.node.Next, final[s.Name])
			}
		}
	}
}

// bind builds one graph entry's substitution: id (the graph key), every key
// the entry gives, and the defaults of the declared parameters; required ones checked.
func bind(id string, node *story.PhaseNode, tpl *story.PhaseTemplate, where string, ps *problems) *binding {
	b := &binding{params: map[string]any{"id": id}, next: node.Next, probs: ps, where: where}
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
	b.params["id"] = id // an entry's own id: key does not rename the phase
	if !ok {
		return nil
	}
	return b
}

// mergeCheckpoints adds the checkpoint intents to s, a generated
// *_awaiting_reply state; the state's own intent wins.
func mergeCheckpoints(s *story.State, cps map[string]*story.Intent) {
	if len(cps) == 0 {
		return
	}
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

// order is the graph's declaration order, else its ids sorted.
func order(ph *story.Phases) []string {
	out := make([]string, 0, len(ph.Graph))
	seen := make(map[string]bool, len(ph.Graph))
	for _, id := range slices.Concat(ph.Order, slices.Sorted(maps.Keys(ph.Graph))) {
		if _, ok := ph.Graph[id]; ok && !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}
