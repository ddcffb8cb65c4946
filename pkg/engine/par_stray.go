package engine

import "context"

// strayAt moves leaf, the leaf in region place's place, to dst, a state
// outside the parallel root, as upstream does though arguably wrong
// (docs/compat/engine.md "emit: between regions"): dst's leaf stands in
// the place until the configuration is read back (conformance
// par-emit-leave). Where dst's initial: chain lands on a parallel state,
// upstream writes that state's initial encoding into the place: a state
// other than the root is entered down to its parent only, its own on_enter
// and regions not run (par-emit-leave-parallel); the root itself (a
// target that is, or whose initial: chain reaches, the root) is exited
// whole, nothing entered (par-emit-root-next). The encoding is read back
// at the next turn (readBackWritten).
func (r *runner) strayAt(ctx context.Context, place, leaf, dst *State, st *step) error {
	land, err := r.initialLeaf(dst)
	if err != nil {
		return err
	}
	pc := r.par
	if !land.Parallel {
		pc.strays = true
		return r.moveAt(ctx, place, leaf, dst, st)
	}
	r.cur = leaf
	anc := commonAncestor(leaf, land)
	if land == pc.root {
		anc = land.Parent // the encoding's first piece is no state of the path
	}
	if err := r.exitFrom(leaf, anc); err != nil {
		return err
	}
	for _, s := range pathDown(anc, land.Parent) {
		if err := r.enterOne(ctx, s, st); err != nil {
			return err
		}
	}
	enc, err := r.initialEncoding(land)
	if err != nil {
		return err
	}
	for _, p := range encodedPrefixes(parentPath(land.Path), enc) {
		if err := r.emitState(KindStateEntered, p); err != nil {
			return err
		}
	}
	pc.strays = true
	pc.replaceAt(place, leaf, land)
	if pc.enc == nil {
		pc.enc = map[*State]string{}
	}
	pc.enc[land] = enc
	r.par, r.cur = pc, land
	return nil
}

// initialEncoding is the encoding upstream writes for the parallel state
// land standing in a place: its initial configuration's.
func (r *runner) initialEncoding(land *State) (string, error) {
	pc := &parConf{root: land}
	for _, reg := range land.regions() {
		leaf, err := r.initialLeaf(reg)
		if err != nil {
			return "", err
		}
		pc.set(leaf)
	}
	return pc.encode(), nil
}

// strayPieces are upstream's names for the parallel state land standing in
// a place: its initial configuration's encoding split at every ".", the
// joined prefixes past its parent's path ("top.w.q#top", ...,
// "top.w.q#top.w.q.qa.q1|top.w.q.qb.r1"), which upstream enters as states
// when land takes the place and exits, innermost first, when the place
// moves on (conformance par-emit-leave-parallel-next).
func (r *runner) strayPieces(land *State) ([]string, error) {
	enc, err := r.initialEncoding(land)
	if err != nil {
		return nil, err
	}
	return encodedPrefixes(parentPath(land.Path), enc), nil
}

// strayExit writes the state_exited of the parallel state s standing in a
// place (strayAt) as upstream does: its pieces, innermost first. ok is
// false when s is no such state.
func (r *runner) strayExit(s *State) (ok bool, err error) {
	pc := r.par
	if !s.Parallel || pc == nil || !pc.strays || s == pc.root || s.within(pc.root) || s.Parent == nil {
		return false, nil
	}
	pieces, err := r.strayPieces(s)
	if err != nil {
		return true, err
	}
	for i := len(pieces) - 1; i >= 0; i-- {
		if err := r.emitState(KindStateExited, pieces[i]); err != nil {
			return true, err
		}
	}
	return true, nil
}

// handlerFrom is where an event reaching leaf, the leaf in a place, looks
// for its handler: leaf itself, or the parent of another parallel state
// strayAt put there (upstream's encoding in the place finds only the
// handlers above that state; conformance par-emit-leave-parallel).
func (p *parConf) handlerFrom(leaf *State) *State {
	if leaf.Parallel && !p.inRegion(leaf) {
		return leaf.Parent // none above a root at the top
	}
	return leaf
}
