package engine

import "fmt"

// CheckIntent validates an intent call in a resting state without running
// it, as `kitsoki test intents` judges a routing answer (flow-format.md
// §8): the allowed-set check (a wildcard "*" arm allows any name) and the
// declared slots (missing, enum values, types). Guards are not evaluated
// and nothing is written. A nil Rejection means the call would be taken.
// The error is a state the routing cannot be judged in: one that does not
// exist or handles no named intent.
func (m *Machine) CheckIntent(statePath, intent string, slots map[string]any) (*Rejection, error) {
	st := m.States[statePath]
	if len(m.AllowedIntents(statePath)) == 0 {
		return nil, fmt.Errorf("state %q has no allowed intents; fixture may reference a stale or invalid state", statePath)
	}
	r := &runner{m: m, cur: st}
	if rej := r.checkAllowed(intent); rej != nil {
		return rej, nil
	}
	_, rej := r.inputSlots(r.resolveAlias(intent), slots)
	return rej, nil
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
