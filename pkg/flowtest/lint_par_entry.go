package flowtest

import (
	"slices"
	"strings"

	"kitsoki/pkg/engine"
	"kitsoki/pkg/story"
)

// parallelLanding is the path a move from outside into the parallel
// state d lands on, for mayRest: d#leaf|leaf (ix.parLanding), as both
// engines print it (flow-format §3.2; probed: parallel_smoke's calendar
// given initial: soggy lands "clock#clock.calendar.soggy|clock.weather.dry",
// and a region added there lists its leaf too). m.lost when the landing
// is not certain.
func (m *mayWalk) parallelLanding(d *story.State) string {
	leaves, entered, ok := m.ix.parLanding(d)
	if !ok {
		m.lost = true
		return ""
	}
	p := parPath(d, leaves)
	if m.par == nil {
		m.par = map[string][]*story.State{}
	}
	m.par[p] = entered
	return p
}

// parLanding is where a move from outside into the parallel state d
// lands: each region descended through its literal initial: (regionDescent),
// the leaves sorted by path, and every state entered on the way (d's
// ancestors too). Not ok when that is not certain: a region that is not
// a compound with a literal initial:, a nested parallel state, or an
// on_enter of d, its ancestors or a state it enters that does more than
// set, increment, say or emit an event (a call or an emit_intent may
// move a region; an on_enter's emit: reaches no region, on entry or on
// a region's move: conformance lint-par-world n, lint-par-leaves q).
func (ix *storyIndex) parLanding(d *story.State) (leaves, entered []*story.State, ok bool) {
	entered = []*story.State{d}
	for _, r := range d.Children {
		leaf, on, ok := ix.regionDescent(r)
		if !ok {
			return nil, nil, false
		}
		entered = append(entered, on...)
		leaves = append(leaves, leaf)
	}
	for a := d.Parent; a != nil; a = a.Parent {
		entered = append(entered, a)
	}
	if len(leaves) == 0 || slices.ContainsFunc(entered, func(s *story.State) bool { return !allEffects(s.OnEnter, plainEffect) }) {
		return nil, nil, false
	}
	slices.SortFunc(leaves, byPath)
	return leaves, entered, true
}

// regionDescent is the leaf a move to x inside a parallel state lands on,
// descending through each literal initial:, and the states entered on
// the way (x first); not ok at a nested parallel state or a state the
// engines do not descend into certainly. The compiled machine's own
// descent decides (machineDescent) when the story compiles.
func (ix *storyIndex) regionDescent(x *story.State) (*story.State, []*story.State, bool) {
	if m := ix.compiledMachine(); m != nil {
		return ix.machineDescent(m, x)
	}
	entered := []*story.State{x}
	for len(x.Children) > 0 {
		if x.Parallel || x.Type != "compound" || x.Initial() == "" || story.IsTemplated(x.Initial()) {
			return nil, nil, false
		}
		if x = ix.byPath[x.Path+"."+x.Initial()]; x == nil {
			return nil, nil, false
		}
		entered = append(entered, x)
	}
	if x.Parallel {
		return nil, nil, false
	}
	return x, entered, true
}

// parPath is the state path both engines print for the configuration
// of the parallel state p at leaves (sorted by path): p#leaf|leaf.
func parPath(p *story.State, leaves []*story.State) string {
	paths := make([]string, len(leaves))
	for i, s := range leaves {
		paths[i] = s.Path
	}
	return p.Path + "#" + strings.Join(paths, "|")
}

// timed reports whether an advance_clock may fire a timeout where the
// machine rests at p: a timeout: on the state, an ancestor, or, for a
// parallel landing, any state it entered.
func (m *mayWalk) timed(p string) bool {
	for _, s := range m.par[p] {
		if s.Timeout() != nil {
			return true
		}
	}
	for s := m.ix.byPath[p]; s != nil; s = s.Parent {
		if s.Timeout() != nil {
			return true
		}
	}
	return false
}

// parQuiet: an effect entering a parallel state may run without moving a
// region: a set, increment or say with no emit: event (delivered to the
// other regions there).
func parQuiet(e *story.Effect) bool { return plainEffect(e) && e.Emit() == "" }

// parEnterWorld is the world after the quiet entry next (from the plain
// leaf r.at into the parallel state next.in by the arm next.entry,
// landing on next.leaves), as both engines run it (conformance
// lint-par-world): the arm's effects, then the on_enter of each state
// entered above the parallel state and of it, outermost first, then
// region by region, sorted by path (not as declared), the region's own
// and its initial leaves' down to the leaf.
func (l *fixtureLint) parEnterWorld(r, next rest) {
	w, orch, p := l.world, l.fx.Orchestrated(), next.in
	var calls []*story.Effect
	w.apply(next.entry.Effects, orch, &calls)
	for s := r.at; s != nil; s = s.Parent {
		w.forget(s.OnExit(), orch) // no on_exit runs upstream; kitsoki refuses one (rule on-exit)
	}
	entered := settleEntered(r.at, p, true)
	for _, reg := range slices.SortedFunc(slices.Values(p.Children), byPath) {
		_, on, ok := l.ix.regionDescent(reg)
		if !ok {
			w.loseAll()
			return
		}
		entered = append(entered, on...)
	}
	for _, s := range entered {
		w.apply(s.OnEnter, orch, &calls)
	}
	w.forget(calls, orch) // none: a quiet landing makes no call
}

// machineDescent is regionDescent by the engine's own descent
// (engine.Machine.InitialLeaf): a state with children written without
// type: compound is its own landing (conformance lint-par-untyped).
func (ix *storyIndex) machineDescent(m *engine.Machine, x *story.State) (*story.State, []*story.State, bool) {
	leaf, below, ok := m.InitialLeaf(x.Path)
	to := ix.byPath[leaf]
	if !ok || to == nil || to.Parallel {
		return nil, nil, false
	}
	entered := []*story.State{x}
	for _, p := range below {
		s := ix.byPath[p]
		if s == nil {
			return nil, nil, false
		}
		entered = append(entered, s)
	}
	return to, entered, true
}
