package flowtest

import (
	"strings"

	"kitsoki/pkg/story"
)

// unknownLeafStart reports whether t, the fixture's first turn, fires at
// an initial_state root#entry|entry the walk does not follow (r holds no
// rest) whose root is a parallel state p and one entry at least is no
// state but lies under a region of p (p.ra.zz, p.ra.a1.q: its deepest
// known dotted prefix is inside p), every other being a leaf of a region,
// an entry under no region of p, or empty. The engine starts there as the
// existing engine does (conformance start-under-known-parallel,
// par-start-entry-forms spaces): the unknown entry stays in the state
// path and takes intents through its dotted prefixes, and where two
// entries take one intent only the first moves; so the run follows the
// fixture from its first turn on the engine's machine (startReplay).
func (l *fixtureLint) unknownLeafStart(t *Turn, r rest) bool {
	fx, ix := l.fx, l.ix
	if r.at != nil || r.in != nil || r.exit != "" || len(fx.Turns) == 0 || t != fx.Turns[0] || ix.unfolded {
		return false
	}
	root, _, ok := strings.Cut(fx.InitialState, "#")
	p := ix.byPath[root]
	if !ok || p == nil || !p.Parallel {
		return false
	}
	under := false
	for _, path := range leaves(fx.InitialState) {
		if path == "" || ix.stray(p, path) {
			continue
		}
		if s := ix.byPath[path]; s != nil {
			if regionOf(p, s) == nil || len(s.Children) > 0 || s.Parallel {
				return false // a compound or the root itself: not judged here
			}
			continue
		}
		anc := ix.byPath[ix.knownAncestor(path)]
		if anc == nil || !within(anc, p) || anc.Parallel || ancestorParallel(anc, p) {
			return false
		}
		under = true
	}
	return under
}

// ancestorParallel reports whether a state between s and p (s included,
// p excluded) is parallel: a nested parallel region is not judged.
func ancestorParallel(s, p *story.State) bool {
	for x := s; x != nil && x != p; x = x.Parent {
		if x.Parallel {
			return true
		}
	}
	return false
}
