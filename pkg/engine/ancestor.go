package engine

import (
	"context"
	"slices"
)

// ancestorStay resolves a stay on an arm that an ancestor of the current
// leaf owns: upstream reads "." as the owner's own path and descends its
// initial: (conformance ancestor-stay); an arm the active parallel root
// owns re-places every region (resetRegions).
func (r *runner) ancestorStay(res target, owner *State) target {
	if !res.stay && res.state != nil && r.bareParallel() && (res.state == r.cur || r.selfReentry(res)) {
		// the bare root, or an ancestor whose initial: chain ends at it
		return target{stay: true} // conformance bare-parallel-self, ancestor-stay-parallel
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
	// an initial: chain ending at a parallel state moves as the owner
	// named does, from a leaf resting alone inside it too (conformance
	// ancestor-stay-parallel); only the bare root it ends at stays
	leaf, err := r.initialLeaf(owner)
	if err != nil || leaf == r.cur || (leaf != nil && r.cur != nil && leaf.Path == r.cur.Path) {
		return res
	}
	return target{state: owner}
}

// resetRegions is the active parallel root targeted from inside it: the
// root exited and entered (not on an emit hop: conformance par-root-hop),
// every region back at its initial leaf, no on_enter (conformance
// ancestor-stay) — but an emit hop that lands on another configuration
// than the one it left runs the on_enter of every region state it
// enters (conformance par-root-hop-moved).
func (r *runner) resetRegions(ctx context.Context, st *step) error {
	root := r.par.root
	// conformance ancestor-stay dbare_true, par-transition-view q.yaml
	r.t.noView = !r.t.hop && r.t.transView == nil
	pc := &parConf{root: root}
	leaves := make([]*State, 0, len(root.regions()))
	for _, reg := range root.regions() {
		leaf, err := r.initialLeaf(reg)
		if err != nil {
			return err
		}
		leaves = append(leaves, leaf)
		pc.set(leaf)
	}
	if !r.t.hop {
		// upstream's state_entered names: the dotted prefixes of the new
		// encoding past the root's leading segments (conformance
		// par-root-reenter-nested)
		if err := r.emitState(KindStateExited, root.Path); err != nil {
			return err
		}
		for _, p := range encodedPrefixes(root.Path, pc.encode()) {
			if err := r.emitState(KindStateEntered, p); err != nil {
				return err
			}
		}
	} else if err := r.reenterRegions(ctx, leaves, !slices.Equal(pc.leaves, r.par.leaves), st); err != nil {
		return err
	}
	r.par, r.cur = pc, pc.leaves[0]
	return nil
}

// reenterRegions is an emit hop's entry of the root's initial leaves: with
// on_enter when it moved the configuration (conformance
// par-root-hop-moved), else the entries alone.
func (r *runner) reenterRegions(ctx context.Context, leaves []*State, moved bool, st *step) error {
	root := r.par.root
	for _, leaf := range leaves {
		for _, s := range pathDown(root, leaf) {
			var err error
			if moved {
				err = r.enterOne(ctx, s, st)
			} else {
				err = r.emitState(KindStateEntered, s.Path)
			}
			if err != nil {
				return err
			}
		}
	}
	return nil
}

// bareCompound: the machine rests on a compound state itself; a stay there
// enters its initial: chain (conformance start-flat).
func (r *runner) bareCompound() bool {
	return r.par == nil && r.cur != nil && !r.cur.Parallel && r.cur.Initial != nil && len(r.cur.Children) > 0
}
