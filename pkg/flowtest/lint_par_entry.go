package flowtest

import (
	"slices"
	"strings"

	"kitsoki/pkg/story"
)

// parallelLanding is the path a move from outside into the parallel
// state d lands on, for mayRest: d#leaf|leaf, each region descended
// through its literal initial: and the leaves sorted by path, as both
// engines print it (flow-format §3.2; probed: parallel_smoke's calendar
// given initial: soggy lands "clock#clock.calendar.soggy|clock.weather.dry",
// and a region added there lists its leaf too). m.lost when the landing
// is not certain: a region that is not a compound with a literal
// initial:, a nested parallel state, or an on_enter of d, its ancestors
// or a state it enters that does more than set, increment or say (an
// emit: event, a call or an emit_intent may move a region).
func (m *mayWalk) parallelLanding(d *story.State) string {
	entered := []*story.State{d}
	var leaves []string
	for _, r := range d.Children {
		x := r
		entered = append(entered, x)
		for len(x.Children) > 0 {
			if x.Parallel || x.Type != "compound" || x.Initial() == "" || story.IsTemplated(x.Initial()) {
				m.lost = true
				return ""
			}
			x = m.ix.byPath[x.Path+"."+x.Initial()]
			if x == nil {
				m.lost = true
				return ""
			}
			entered = append(entered, x)
		}
		if x.Parallel {
			m.lost = true
			return ""
		}
		leaves = append(leaves, x.Path)
	}
	for a := d.Parent; a != nil; a = a.Parent {
		entered = append(entered, a)
	}
	if len(leaves) == 0 || slices.ContainsFunc(entered, func(s *story.State) bool { return !allEffects(s.OnEnter, parQuiet) }) {
		m.lost = true
		return ""
	}
	slices.Sort(leaves)
	p := d.Path + "#" + strings.Join(leaves, "|")
	if m.par == nil {
		m.par = map[string][]*story.State{}
	}
	m.par[p] = entered
	return p
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
