package flowtest

import (
	"slices"
	"strings"

	"kitsoki/pkg/engine"
)

// leaves are a resting state path's leaves: a parallel configuration's
// (root#leafA|leafB), or the state itself.
func leaves(state string) []string {
	if _, ls, ok := strings.Cut(state, "#"); ok {
		return strings.Split(ls, "|")
	}
	return []string{state}
}

// allowedAt lists the intents a resting state path takes, sorted.
func allowedAt(m *engine.Machine, state string) []string {
	var out []string
	for _, l := range leaves(state) {
		out = append(out, m.AllowedIntents(l)...)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// aliasesAt lists the imported intents' bare names upstream's rejection
// also allows at state: on the orchestrator path only those the story
// declares (see testdata/conformance/import-allowed-aliases).
func aliasesAt(m *engine.Machine, state string, legacy bool) []string {
	var out []string
	for _, l := range leaves(state) {
		st := m.States[l]
		for s := st; s != nil; s = s.Parent {
			for bare := range s.Aliases {
				if legacy || declaredAt(m, st, bare) {
					out = append(out, bare)
				}
			}
		}
	}
	return out
}

// declaredAt: intent is global, or local to st or an ancestor.
func declaredAt(m *engine.Machine, st *engine.State, intent string) bool {
	if _, ok := m.Intents[intent]; ok {
		return true
	}
	for s := st; s != nil; s = s.Parent {
		if _, ok := s.Intents[intent]; ok {
			return true
		}
	}
	return false
}

// withAliases is allowed with extra added, sorted, without repeats.
func withAliases(allowed, extra []string) []string {
	if len(extra) == 0 {
		return allowed
	}
	out := append(slices.Clone(allowed), extra...)
	slices.Sort(out)
	return slices.Compact(out)
}
