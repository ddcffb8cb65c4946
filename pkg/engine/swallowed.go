package engine

import (
	"context"
	"slices"
)

// swallowed records that the turn's on_error handling was swallowed: the
// chain passed the depth cap, or a landing's on_enter or its emit_intent
// chain failed (story-runtime §2.4). Upstream's dispatch then fails: its
// machine stays at the originating state (at; nil in a parallel
// configuration), while its log, which the next turn replays, ends where
// the chain went.
func (r *runner) swallowed(origin string, at *State) {
	r.t.capView, r.t.capAt, r.t.swallowed = origin, at, true
	r.t.capPostBind = r.t.postSettle
}

// swallowedPostBind runs the post-bind pass upstream runs after a
// swallowed chain: from the originating state, whose on_enter emits are
// decided again against the live world. A hop moves the session from
// there (the origin's exit, the target's entry) and the turn ends as after
// any post-bind hop; when none fires the session stays where the chain
// left it (conformance swallowed-postbind).
func (r *runner) swallowedPostBind(ctx context.Context) error {
	at := r.t.capAt
	if at == nil {
		return nil
	}
	cur, par, ended, outcome, exit := r.cur, r.par, r.ended, r.outcome, r.exit
	redirectErr, n := r.t.redirectErr, len(r.t.events)
	capView := r.t.capView
	r.cur, r.par, r.ended, r.outcome, r.exit = at, nil, false, "", ""
	r.t.redirectErr = ""
	r.t.capView, r.t.capAt = "", nil
	if err := r.postBind(ctx); err != nil {
		return err
	}
	if r.t.capView != "" {
		return nil // the pass's own chain was swallowed: its origin shows
	}
	if slices.ContainsFunc(r.t.events[n:], func(e Event) bool { return e.Kind == KindStateEntered }) {
		return nil
	}
	r.t.capView, r.t.capAt = capView, at
	r.cur, r.par, r.ended, r.outcome, r.exit = cur, par, ended, outcome, exit
	r.t.redirectErr = redirectErr
	return nil
}
