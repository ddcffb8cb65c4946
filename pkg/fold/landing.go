package fold

import (
	"slices"
	"strings"

	"kitsoki/pkg/story"
)

// freeFormFallback copies the free-form fallback arc into every room, as
// upstream's loader does once the whole tree is folded and its phases
// expanded (applyFreeFormFallback): the arms of the fallback state's
// fallback intent, each retargeted to that state, are added to every state
// that is not terminal, has no default_intent, no agent_off_ramp and no
// on: entry of its own for that intent.
//
// The fallback is routing.free_form_fallback {state, intent} when the
// story declares one; otherwise the implicit one: the first state, in
// path order, whose last segment is "landing" and that handles "work" (or
// an imported "<alias>__work").
func freeFormFallback(st *story.Story) {
	all := st.AllStates()
	from, intent := fallbackArc(st, all)
	if from == nil {
		return
	}
	arms := from.Arms(intent)
	if len(arms) == 0 {
		return
	}
	for _, s := range all {
		if s == from || s.Terminal || s.DefaultIntent() != "" || s.HasOn(intent) {
			continue
		}
		if r := s.AgentOffRamp(); r != nil && r.Enabled {
			continue
		}
		copied := make([]*story.Transition, len(arms))
		for i, a := range arms {
			c := *a
			c.Target = from.Path
			copied[i] = &c
		}
		s.AddOn(intent, from.OnAt(intent).Pos, copied...)
	}
}

// fallbackArc finds the state and intent of the free-form fallback.
func fallbackArc(st *story.Story, all []*story.State) (*story.State, string) {
	if r := st.Routing; r != nil && (r.FreeFormFallbackState != "" || r.FreeFormFallbackIntent != "") {
		want := strings.ReplaceAll(r.FreeFormFallbackState, "/", ".")
		for _, s := range all {
			if s.Path == want && s.HasOn(r.FreeFormFallbackIntent) {
				return s, r.FreeFormFallbackIntent
			}
		}
		return nil, ""
	}
	var landings []*story.State
	for _, s := range all {
		if s.Name == "landing" {
			landings = append(landings, s)
		}
	}
	slices.SortStableFunc(landings, func(a, b *story.State) int { return strings.Compare(a.Path, b.Path) })
	for _, s := range landings {
		if s.HasOn("work") {
			return s, "work"
		}
		for _, o := range s.On {
			if strings.HasSuffix(o.Intent, "__work") {
				return s, o.Intent
			}
		}
	}
	return nil, ""
}

// Changes reports whether [New] would change st beyond copying it: it has
// imports to fold, phases to expand or a free-form fallback arc to copy
// into its rooms. A caller may use st as loaded when it reports false.
func Changes(st *story.Story) bool {
	if st == nil {
		return false
	}
	if len(st.ImportOrder) > 0 || len(st.Imports) > 0 || st.Phases != nil {
		return true
	}
	from, _ := fallbackArc(st, st.AllStates())
	return from != nil
}
