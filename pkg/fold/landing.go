package fold

import (
	"slices"
	"strings"

	"kitsoki/pkg/story"
)

// freeFormFallback copies the free-form fallback arc into every room, as
// upstream's applyFreeFormFallback does after the fold and phases: the
// fallback state's arms for its intent, retargeted to it, go to every
// state that is not terminal and has no default_intent, agent_off_ramp or
// arm of its own for the intent. The fallback is
// routing.free_form_fallback, else the first state in path order named
// "landing" that handles "work" (or "<alias>__work").
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

// Changes reports whether [New] would change st beyond copying it (imports,
// phases or a free-form fallback arc); when false st may be used as loaded.
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
