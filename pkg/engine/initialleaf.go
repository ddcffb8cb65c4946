package engine

import "strings"

// InitialLeaf is the state a move to the state path lands on, descending
// each initial: the machine compiled, and the states entered on the way
// below path, in order: a state with children that is not type: compound
// has no initial: and is its own landing (conformance untyped-children,
// par-transition-view-root: a region written without a type). ok is false
// for a path the machine does not hold, a templated initial: or one
// naming no child, and a nested parallel state.
func (m *Machine) InitialLeaf(path string) (leaf string, entered []string, ok bool) {
	s := m.States[path]
	if s == nil {
		return "", nil, false
	}
	for len(s.Children) > 0 {
		if s.Parallel {
			return "", nil, false
		}
		if s.Initial == nil {
			break
		}
		if s.Initial.templated() {
			return "", nil, false
		}
		var next *State
		for _, c := range s.Children {
			if c.Name == strings.TrimSpace(s.Initial.src) {
				next = c
			}
		}
		if next == nil {
			return "", nil, false
		}
		s = next
		entered = append(entered, s.Path)
	}
	return s.Path, entered, true
}
