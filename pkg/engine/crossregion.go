package engine

import "context"

// crossRegion takes a regional arm whose target lies in another region of
// the active parallel state, as upstream does (story-runtime §3.4,
// conformance par-cross): the target, descended to its initial leaf, takes
// the place of the leaf whose walk found the handler (from), the states
// from that leaf up to below its common ancestor with the target are
// exited and those down to the target entered (their on_enter runs). The
// configuration then holds two leaves of the target's region and none of
// from's: that region's intents are refused and its view is not shown, as
// upstream's encoded path says (p#p.ra.a1|p.ra.a2). `kitsoki validate`
// warns at such a target (cross-region).
func (r *runner) crossRegion(ctx context.Context, arm *Transition, from, dst, reg *State, st *step, tr map[string]any) error {
	pc := r.par
	pre, err := r.takePlace(from, dst)
	if err != nil {
		return err
	}
	// the own move first, as a regional arm's (conformance
	// par-cross-own-enter-first)
	if err := r.swapInto(ctx, pc, from, dst, pre, st); err != nil {
		return err
	}
	if err := r.propagate(ctx, armEmits(arm), reg, st, 1); err != nil {
		return err
	}
	tr["to"] = r.statePath()
	return nil
}

// takePlace puts dst's initial leaf (returned) in from's place.
func (r *runner) takePlace(from, dst *State) (*State, error) {
	pre, err := r.initialLeaf(dst)
	if err != nil {
		return nil, err
	}
	r.par.replace(from, pre)
	return pre, nil
}

// swapInto writes from's move to dst (exits, entries, on_enter, initial:
// descent) in configuration pc, whose leaves already hold pre (dst's
// initial leaf) in from's place, and puts the leaf reached there.
func (r *runner) swapInto(ctx context.Context, pc *parConf, from, dst, pre *State, st *step) error {
	end, err := r.swapLeaf(ctx, from, dst, st)
	if err != nil {
		return err
	}
	if r.par == pc {
		pc.replace(pre, end)
		r.cur = pc.leaves[0]
	}
	return nil
}

// crossReceive moves an emit: receiver whose arm targets another region's
// state as a handler's cross-region target moves (crossRegion): the
// target takes the receiving leaf's place (conformance par-cross-receiver).
func (r *runner) crossReceive(ctx context.Context, leaf, dst *State, st *step) error {
	pc := r.par
	pre, err := r.takePlace(leaf, dst)
	if err != nil {
		return err
	}
	return r.swapInto(ctx, pc, leaf, dst, pre, st)
}
