package engine

import "context"

// crossRegion takes a regional arm whose target lies in another region:
// the target's initial leaf takes the place of from, the leaf whose walk
// found the handler, leaving two leaves in the target's region
// (story-runtime §3.4, conformance par-cross; docs/compat/engine.md "A
// handler targeting another region's state").
func (r *runner) crossRegion(ctx context.Context, arm *Transition, from, dst, reg *State, st *step, tr map[string]any) error {
	// the own move first (conformance par-cross-own-enter-first)
	if err := r.crossReceive(ctx, r.par.placeOf(from), from, dst, st); err != nil {
		return err
	}
	if err := r.propagate(ctx, armEmits(arm), reg, st, 1); err != nil {
		return err
	}
	tr["to"] = r.statePath()
	return nil
}

// crossReceive puts dst's initial leaf in place of leaf, the leaf in
// region place's place, and writes leaf's move to dst (exits, entries,
// on_enter, initial: descent), as a handler's cross-region target or an
// emit: receiver's moves (conformance par-cross-receiver).
func (r *runner) crossReceive(ctx context.Context, place, leaf, dst *State, st *step) error {
	pc := r.par
	pre, err := r.initialLeaf(dst)
	if err != nil {
		return err
	}
	pc.replaceAt(place, leaf, pre)
	end, err := r.swapLeaf(ctx, leaf, dst, st)
	if err != nil {
		return err
	}
	if r.par == pc {
		pc.replaceAt(place, pre, end)
		r.cur = pc.leaves[0]
	}
	return nil
}
