package engine

import (
	"fmt"
	"maps"

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
// compares): with the optional slots' defaults written in when the call is
// taken or rejected for missing slots (a required slot's default is never
// written; an answer with no slot map gets none), as sent otherwise.
func (m *Machine) CheckIntent(statePath, intent string, slots map[string]any) (map[string]any, *Rejection, error) {
	st := m.States[statePath]
	if len(m.AllowedIntents(statePath)) == 0 {
		return nil, nil, fmt.Errorf("state %q has no allowed intents; fixture may reference a stale or invalid state", statePath)
	}
	r := &runner{m: m, cur: st}
	if rej := r.checkAllowed(intent); rej != nil {
		return slots, rej, nil
	}
	name := r.resolveAlias(intent)
	out, rej := r.inputSlots(name, slots)
	switch {
	case rej == nil:
		return out, nil, nil
	case rej.Code == CodeMissingSlots && slots != nil:
		// upstream fills every optional default before it counts the
		// missing ones
		defs, _ := r.slotDefsFor(name)
		out = make(map[string]any, len(slots)+len(defs))
		maps.Copy(out, slots)
		for n, d := range defs {
			if _, ok := out[n]; !ok && !d.Required && d.Default != nil {
				out[n] = jsonvalue.Normalize(d.Default)
			}
		}
		return out, rej, nil
	}
	// a value rejection: upstream stops filling defaults at the rejected
	// slot, in its map's random order; the bag as sent is one of its
	// outcomes (docs/compat/flowtest.md)
	return slots, rej, nil
}

// AllowedIntents lists the intent names a resting state handles (its own
// on: and its ancestors', sorted; a wildcard "*" is not a name), nil for a
// state the story does not have.
func (m *Machine) AllowedIntents(statePath string) []string {
	st := m.States[statePath]
	if st == nil {
		return nil
	}
	r := &runner{m: m, cur: st}
	return r.available(st)
}
