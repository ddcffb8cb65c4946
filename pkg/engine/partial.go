package engine

import "context"

// A target below an inactive parallel state enters only the chain down to
// it, and the machine rests on that leaf alone, as in a compound
// (docs/compat/engine.md "Entering a region's state from outside").

// enterPartialRegions is a stay on an arm of p, the parallel state the
// machine rests partly inside: the states below p are exited and every
// region entered, p's own on_enter not run (conformance par-leaf).
func (r *runner) enterPartialRegions(ctx context.Context, p *State, st *step) error {
	if err := r.exitUpTo(p); err != nil {
		return err
	}
	return r.enterParallel(ctx, p, st)
}
