package engine

import (
	"fmt"
	"slices"
	"strings"
)

// checkAllowed is the allowed-set check (story-runtime §1.4 step 2).
func (r *runner) checkAllowed(intent string) *Rejection {
	if r.ended && r.outcome == OutcomeExit {
		return &Rejection{Code: CodeNotAllowed, Intent: intent, State: r.statePath(),
			Message: fmt.Sprintf("intent %q is not allowed in state %q", intent, r.statePath())}
	}
	for _, l := range r.allowLeaves() {
		if arms, _ := lookupFrom(l, intent); arms != nil {
			return nil
		}
		for s := l; s != nil; s = s.Parent {
			// an import alias's folded name (a "*" arm already allowed it)
			if a, ok := s.Aliases[intent]; ok && a != intent {
				if arms, _ := lookupFrom(l, a); arms != nil {
					return nil
				}
			}
		}
	}
	st := r.statePath()
	if r.par != nil {
		st = r.par.root.Path
	}
	return &Rejection{Code: CodeNotAllowed, Intent: intent, State: st, Allowed: r.allowed(),
		Message: fmt.Sprintf("intent %q is not allowed in state %q", intent, decodedPath(r.statePath()))}
}

// decodedPath is the state path as upstream's machine names it in a
// refusal: a parallel path's entries (what follows its first "#", split
// at every "|") sorted, however the path was written (a fixture's start
// out of order, a receiver's root write read back; conformance
// par-start-entry-forms). Any other path as it is.
func decodedPath(path string) string {
	root, rest, ok := strings.Cut(path, "#")
	if !ok {
		return path
	}
	entries := strings.Split(rest, "|")
	slices.Sort(entries)
	return root + "#" + strings.Join(entries, "|")
}

// allowed lists the intents the current configuration handles.
func (r *runner) allowed() []string {
	if r.cur == nil || (r.ended && r.outcome == OutcomeExit) {
		return nil
	}
	var out []string
	for _, l := range r.allowLeaves() {
		out = append(out, available(l)...)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// leaves are the current leaves: every region's in a parallel
// configuration, else the current state alone.
func (r *runner) leaves() []*State {
	if r.par != nil {
		return r.par.leaves
	}
	return []*State{r.cur}
}
