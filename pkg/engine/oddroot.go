package engine

import "strings"

// placeOddRoot rests a flow's start on root#entries whose root is no
// parallel state (s0#p.ra.x1, c#c.a, zz#q), as upstream's flow rig seeds
// it (conformance start-odd-root): a configuration of that root (p, nil
// when the story has no such state: one of no view and no timeout) and
// each entry as written. Upstream runs no on_enter there; its state is
// the path as written; its view is the root's then each named entry's,
// as a parallel configuration's; and only the root's own timeout is
// armed. The first intent aborts upstream's whole run ("turnParallel:
// state is not parallel"), so only clock turns are matched.
func (r *runner) placeOddRoot(spec, root, leaves string, p *State) {
	if p == nil {
		p = &State{Path: root, Name: root}
	}
	pc := &parConf{root: p, listed: spec, label: spec}
	for _, l := range strings.Split(leaves, "|") {
		st := r.m.States[l]
		if st == nil {
			st = outsideLeaf(l)
		}
		pc.leaves = append(pc.leaves, st)
	}
	r.par, r.cur = pc, pc.leaves[0]
}
