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
// it, as `kitsoki test intents` judges a routing answer (flow-format.md
// §8): the allowed-set check (a wildcard "*" arm allows any name) and the
// declared slots (missing, enum values, types). Guards are not evaluated
// and nothing is written. A nil Rejection means the call would be taken.
// The error is a state the routing cannot be judged in: one that does not
// exist or handles no named intent.
//
// The slots returned are the answer's slot bag as upstream's validation
// leaves it (the routing report's FirstActualSlots and the slots a fixture
// compares): with the optional slots' defaults written in (a required
// slot's default never is; an answer with no slot map gets none).
func (m *Machine) CheckIntent(statePath, intent string, slots map[string]any) (map[string]any, *Rejection, error) {
	st := m.restingState(statePath)
	if len(m.AllowedIntents(statePath)) == 0 {
		return nil, nil, fmt.Errorf("state %q has no allowed intents; fixture may reference a stale or invalid state", statePath)
	}
	r := &runner{m: m, cur: st}
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
// refuses a call: each optional absent slot's default written in, in name
// order, for every slot when the refusal is for missing slots (counted
// after the walk), else up to the first value outside its values: (where
// upstream stops, in its map's random order: ours is one of its outcomes;
// docs/compat/flowtest.md).
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
// state the story does not have, nor any dotted prefix of it.
func (m *Machine) AllowedIntents(statePath string) []string {
	return available(m.restingState(statePath))
}

// restingState is the state a routing fixture's state path names: the
// story's, or for a path the story does not hold under one it does (c.,
// c.zz, c..c1, c.c1.) a leaf of its own under the deepest known dotted
// prefix, which handles what that prefix handles, as upstream's machine
// looks intents up (conformance start-under-known); nil when no prefix is
// known (.c, C).
func (m *Machine) restingState(path string) *State {
	if st := m.States[path]; st != nil {
		return st
	}
	return (&runner{m: m}).unknownLeaf(path, nil)
}

// ByPriority returns names in the order upstream's orchestrator lists the
// intents the state at takes: by priority, highest first, then by name
// (conformance allowed-priority-order). An intent's priority is its
// nearest declaration's: the state's own intents:, an ancestor's, then the
// story's (a local one without priority: is 0; conformance
// allowed-priority-local).
func (m *Machine) ByPriority(names []string, at string) []string {
	st := m.States[at]
	prio := func(n string) int {
		for s := st; s != nil; s = s.Parent {
			if p, ok := s.Priority[n]; ok {
				return p
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
