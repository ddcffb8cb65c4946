package engine

import (
	"context"
	"slices"
)

// swallowed records that the turn's on_error handling was swallowed (the
// depth cap, a failing landing): upstream's machine stays at the
// originating state (at; nil in a parallel configuration), its log where
// the chain went (story-runtime §2.4).
func (r *runner) swallowed(origin string, at *State) {
	r.t.capView, r.t.capAt, r.t.swallowed = origin, at, true
	r.t.capPostBind = r.t.postSettle
}

// swallowedPostBind runs the post-bind pass upstream runs after a
// swallowed chain, from the originating state; when no hop fires the
// session stays where the chain left it (conformance swallowed-postbind).
func (r *runner) swallowedPostBind(ctx context.Context) error {
	at := r.t.capAt
	if at == nil {
		return nil
	}
	was, redirectErr, n, first := r.place, r.t.redirectErr, len(r.t.events), r.t.first
	capView := r.t.capView
	r.place, r.t.redirectErr = place{cur: at}, ""
	r.t.capView, r.t.capAt = "", nil
	r.t.loggedAt = &was
	err := r.postBind(ctx)
	r.t.loggedAt = nil
	if err != nil {
		return err
	}
	if r.t.capView != "" {
		// the pass's own chain was swallowed: its origin shows, or,
		// when that renders nothing, what showed before the pass
		// (conformance swallowed-pass-empty-origin): the turn's first
		// render, though the pass's own batch bound
		r.t.hopFrom, r.t.hopFirst = capView, first
		return nil
	}
	if hopped(r.t.events[n:]) {
		r.t.hopFrom = capView
		return nil
	}
	r.t.capView, r.t.capAt = capView, at
	r.place, r.t.redirectErr = was, redirectErr
	return nil
}

// hopped reports whether events hold a post-bind hop: an entry, or a
// transition that enters nothing (a self-target or a stay), which moves
// the session from a swallowed chain's end to the hop's target as well
// (conformance cap-selfhop-after-cap).
func hopped(events []Event) bool {
	return slices.ContainsFunc(events, func(e Event) bool {
		return e.Kind == KindStateEntered || e.Kind == KindTransition
	})
}
