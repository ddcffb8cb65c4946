package engine

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"

	"kitsoki/internal/jsonvalue"
)

// CheckIntent validates an intent call in a resting state without running
// it or its guards, as `kitsoki test intents` judges a routing answer
// (flow-format.md §8): the allowed set and the declared slots. A nil
// Rejection means the call would be taken; the error is a state that
// cannot be judged. The slots returned are the bag upstream's validation
// leaves (optional slots' defaults written in).
func (m *Machine) CheckIntent(statePath, intent string, slots map[string]any) (map[string]any, *Rejection, error) {
	if len(m.AllowedIntents(statePath)) == 0 {
		return nil, nil, fmt.Errorf("state %q has no allowed intents; fixture may reference a stale or invalid state", statePath)
	}
	leaves := m.routingLeaves(statePath)
	r := &runner{m: m, place: place{cur: leaves[0]}}
	if i := strings.LastIndexByte(statePath, '#'); i >= 0 {
		root := m.States[statePath[:i]]
		if root == nil {
			root = &State{Path: statePath[:i], Name: statePath[:i]}
		}
		r.par = &parConf{root: root, leaves: leaves, label: statePath}
	}
	if rej := r.checkAllowed(intent); rej != nil {
		return slots, rej, nil
	}
	name := aliasFrom(r.cur, intent)
	out, rej := r.inputSlots(name, slots)
	if rej == nil || slots == nil {
		return out, rej, nil
	}
	return r.slotBag(name, slots, rej.Code == CodeMissingSlots), rej, nil
}

// slotBag is the slot map upstream's validation leaves behind when it
// refuses a call: optional absent slots' defaults written in, in name
// order, all of them for missing slots, else up to the first value outside
// its values: (docs/compat/flowtest.md).
func (r *runner) slotBag(intent string, slots map[string]any, all bool) map[string]any {
	defs, _ := r.slotDefsFor(intent)
	out := maps.Clone(slots)
	for _, n := range slices.Sorted(maps.Keys(defs)) {
		d := defs[n]
		v, ok := out[n]
		if d.Required && (!ok || v == nil) {
			continue
		}
		if !ok && d.Default != nil {
			v = jsonvalue.Normalize(d.Default)
			out[n] = v
		}
		if values := valueStrings(d.Values); !all && (ok || d.Default != nil) && len(values) > 0 && !slices.Contains(values, fmt.Sprint(v)) {
			break
		}
	}
	return out
}

// AllowedIntents lists the intent names a resting state handles (its own
// on: and its ancestors', sorted; a wildcard "*" is not a name), nil for a
// state the story does not have, nor any dotted prefix of it. For an
// encoded parallel configuration it is every leaf's (routingLeaves).
func (m *Machine) AllowedIntents(statePath string) []string {
	var out []string
	for _, l := range m.routingLeaves(statePath) {
		out = append(out, available(l)...)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// routingLeaves are the leaves a routing fixture's state path names: the
// resting state alone (none when unknown), or for an encoded parallel
// configuration (root#leaf|leaf) each entry after the last "#" in the
// order written, the root not read, as upstream decodes the path
// (conformance intents-parallel-state); an entry neither the story nor a
// dotted prefix of it knows is a leaf that handles and declares nothing.
func (m *Machine) routingLeaves(path string) []*State {
	i := strings.LastIndexByte(path, '#')
	if i < 0 {
		if st := m.restingState(path); st != nil {
			return []*State{st}
		}
		return nil
	}
	var out []*State
	for _, e := range strings.Split(path[i+1:], "|") {
		st := m.restingState(e)
		if st == nil {
			st = &State{Path: e, Name: e}
		}
		out = append(out, st)
	}
	return out
}

// restingState is the state a routing fixture's state path names, or a
// leaf under its deepest known dotted prefix (conformance
// start-under-known); nil when no prefix is known.
func (m *Machine) restingState(path string) *State {
	if st := m.States[path]; st != nil {
		return st
	}
	return (&runner{m: m}).unknownLeaf(path, nil)
}

// ByPriority returns names as upstream's orchestrator lists the state
// at's intents: by priority, highest first, then by name (conformance
// allowed-priority-order, allowed-priority-local). A name's priority is
// its nearest declaration above the resting leaf, else the global one; in
// a parallel configuration (at encoded as root#leaf|leaf) the first leaf
// is that leaf, and a name neither its chain nor the story declares takes
// the nearest declaration above a later leaf (conformance
// allowed-priority-parallel).
func (m *Machine) ByPriority(names []string, at string) []string {
	leaves := []*State{m.States[at]}
	if _, enc, ok := strings.Cut(at, "#"); ok {
		leaves = leaves[:0]
		for l := range strings.SplitSeq(enc, "|") {
			if st := m.States[l]; st != nil {
				leaves = append(leaves, st)
			}
		}
	}
	declared := func(leaf *State, n string) (int, bool) {
		for s := leaf; s != nil; s = s.Parent {
			if p, ok := s.Priority[n]; ok {
				return p, true
			}
		}
		return 0, false
	}
	prio := func(n string) int {
		if len(leaves) > 0 {
			if p, ok := declared(leaves[0], n); ok {
				return p
			}
		}
		if _, global := m.Intents[n]; !global && len(leaves) > 1 {
			for _, l := range leaves[1:] {
				if p, ok := declared(l, n); ok {
					return p
				}
			}
		}
		return m.Priority[n]
	}
	out := slices.Clone(names)
	slices.SortStableFunc(out, func(a, b string) int {
		return cmp.Or(cmp.Compare(prio(b), prio(a)), strings.Compare(a, b))
	})
	return out
}
