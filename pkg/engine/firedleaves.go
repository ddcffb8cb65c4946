package engine

import "strings"

// FiredLeaves are the leaves an intent fired at the parallel configuration
// conf (root#leaf|leaf, leaves in the order the configuration holds them)
// is looked up from, in the order tried: upstream reads the encoding back
// first, one leaf per region in its own region's place, the later of two,
// a leaf outside the root's regions dropped (parConf.reread; conformance
// par-cross-decoded, lint-par-cross). ok is false when conf names no
// parallel state of the machine or a leaf it does not hold.
func (m *Machine) FiredLeaves(conf string) (leaves []string, ok bool) {
	root, enc, found := strings.Cut(conf, "#")
	p := m.States[root]
	if !found || p == nil || !p.Parallel {
		return nil, false
	}
	pc := &parConf{root: p}
	for e := range strings.SplitSeq(enc, "|") {
		l := m.States[e]
		if l == nil {
			return nil, false
		}
		pc.leaves = append(pc.leaves, l)
	}
	for _, l := range pc.reread().leaves {
		leaves = append(leaves, l.Path)
	}
	return leaves, true
}
