package engine

import "slices"

// gateNames is gate_decided's available_intents: the candidates (folded
// names) and, in an imported child, every spelling an import level gave
// each of them (its bare name, and a grandchild's `<alias>__` name too),
// sorted, as upstream lists them (conformance gate-child-names). The
// allowed list a rejection carries holds the folded names alone, on both
// engines.
func gateNames(s *State, cands []string) []string {
	out := slices.Clone(cands)
	for ; s != nil; s = s.Parent {
		for typed, arc := range s.Aliases {
			if typed != arc && slices.Contains(cands, arc) {
				out = append(out, typed)
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}
