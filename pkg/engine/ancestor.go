package engine

// ancestorStay resolves a stay (target "." or none) on an arm that an
// ancestor of the current leaf owns: upstream reads "." as the owner's
// own path and descends its initial:, so from a leaf that is not the
// owner's initial leaf the machine moves there (that leaf's on_enter runs,
// the owner's does not), and from the initial leaf itself it stays with no
// on_enter (conformance ancestor-stay). An arm the active parallel root
// owns re-places every region (resetRegions).
func (r *runner) ancestorStay(res target, owner *State) target {
	if !res.stay && res.state != nil && res.state == r.cur && r.bareParallel() {
		// the bare root named as its own target (an emit hop's too) is a
		// stay: its regions are entered (conformance bare-parallel-self)
		return target{stay: true}
	}
	if !res.stay || owner == nil || r.cur == nil || !r.cur.within(owner) {
		return res
	}
	if r.par != nil && owner == r.par.root {
		return target{state: owner}
	}
	if owner.Parallel {
		if r.par == nil {
			return target{state: owner, regions: true}
		}
		return res
	}
	leaf, err := r.initialLeaf(owner)
	if err != nil || leaf == r.cur || leaf.Parallel {
		return res
	}
	return target{state: owner}
}

// resetRegions is the active parallel root targeted from inside it: as
// upstream, one state_exited of the root, then state_entered of the root
// (neither on an emit hop) and of each region down its initial: chain,
// every region back at its initial leaf, and no on_enter anywhere
// (conformance ancestor-stay).
func (r *runner) resetRegions() error {
	root := r.par.root
	// on the user's own arm upstream's turn renders no view after this
	// move: turn.end shows only the turn's say narration (conformance
	// ancestor-stay dbare_true); an emit hop's renders as usual, and an
	// arm with a view of its own shows that (par-transition-view q.yaml)
	r.t.noView = !r.t.hop && r.t.transView == nil
	if !r.t.hop {
		// an emit hop's reset writes only the regions' entries
		// (conformance par-root-hop)
		if err := r.emitState(KindStateExited, root.Path); err != nil {
			return err
		}
		if err := r.emitState(KindStateEntered, root.Path); err != nil {
			return err
		}
	}
	pc := &parConf{root: root}
	for _, reg := range root.regions() {
		leaf, err := r.initialLeaf(reg)
		if err != nil {
			return err
		}
		for _, s := range pathDown(root, leaf) {
			if err := r.emitState(KindStateEntered, s.Path); err != nil {
				return err
			}
		}
		pc.set(leaf)
	}
	r.par, r.cur = pc, pc.leaves[0]
	return nil
}

// bareCompound: the machine rests on a compound state itself (a flow's
// initial_state naming one, StartFlat); a stay there enters its initial:
// chain, each entered state's on_enter running but the compound's own
// not, as upstream (conformance start-flat).
func (r *runner) bareCompound() bool {
	return r.par == nil && r.cur != nil && !r.cur.Parallel && r.cur.Initial != nil && len(r.cur.Children) > 0
}
