package engine

import "context"

// A target below a parallel state that is not active (an arc, an emit
// hop, an on_error, a timeout or an on_complete from outside it) enters
// only the chain of states down to that target, as upstream does: the
// machine rests on the target's leaf alone, as in a compound (its state
// is the leaf's path, not an encoded configuration), and no other region
// is entered. There only that leaf's and its ancestors' intents are taken,
// only the leaf's own timeout is armed, and the view is the leaf's. A move
// to another region's state from there is an ordinary move between
// compound states. A stay (target: .) on an arm the parallel state owns
// enters every region (resetting the one the machine rests in) without
// leaving the parallel state itself: the states below it are exited, then
// each region is entered down its initial:, every on_enter running but the
// parallel state's own (conformance par-leaf).

// enterPartialRegions is that stay: p is the parallel state the machine
// rests partly inside.
func (r *runner) enterPartialRegions(ctx context.Context, p *State, st *step) error {
	if err := r.exitUpTo(p); err != nil {
		return err
	}
	return r.enterParallel(ctx, p, st)
}
