package engine

import "context"

// keepPrePass remembers, before each round of the post-bind pass, the
// render the turn had then: upstream shows a round's result only when its
// resting state's view renders something (conformance postpass-view,
// mutate-postpass-last-round).
func (r *runner) keepPrePass(ctx context.Context) {
	if r.so.Views == nil {
		return
	}
	if r.t.prePass == nil && r.t.failedBind {
		// an error answer that had nothing to bind leaves upstream's
		// turn without a render before the pass: a hop resting on a
		// view that shows nothing shows nothing (conformance
		// postpass-failed-bind)
		return
	}
	if r.t.prePass != nil {
		// each round is a turn of its own upstream: a round that rests on
		// a view rendering nothing (or failing) showed the render kept
		// before it, so that render is the one before the next round
		// (conformance postpass-kept-through-empty)
		if v, err := r.renderAt(ctx, r.statePath(), r.world.Snapshot(), nil, false); v == "" || err != nil {
			return
		}
	}
	// a call that failed with no on_error and bound nothing keeps the
	// render as a domain error does: transition view and narration
	// (conformance postbind-hop-after-infra-error); so does a background
	// submission that bound nothing (postbind-hop-after-submit)
	rerender := r.t.rerender && r.t.dropSay
	// a re-render that keeps the narration (a failed call, a submission
	// that bound nothing) is what the turn shows when it renders
	// something (conformance postpass-rerender-kept)
	again := r.t.againWithSay()
	world := r.world.Snapshot()
	if r.t.prePass == nil && !r.t.rerender && r.t.first != nil {
		// no re-render after the calls: upstream's render before the
		// pass is the one from before dispatch, which no failed call's
		// last_error or host_error had reached (conformance
		// postpass-first-world)
		world = r.t.first.world
	}
	r.t.prePass = &firstRender{path: r.statePath(), world: world, said: len(r.t.said), rerender: rerender, again: again}
}

// renderPrePass is turn.end's view and narration when the post-bind hops
// came to rest on an empty view: the kept render, without slots,
// transition view or narration after a re-render (conformance
// postpass-view calls.yaml); after a re-render that kept the narration,
// that re-render alone when it renders something, else the kept render
// with its narration.
func (r *runner) renderPrePass(ctx context.Context, slots map[string]any) (string, []sayLine) {
	p := r.t.prePass
	if p.again {
		if v, err := r.renderAt(ctx, p.path, p.world, nil, false); err == nil && v != "" {
			return v, nil
		}
	}
	if p.rerender {
		slots = nil
	}
	v, _ := r.renderAt(ctx, p.path, p.world, slots, !p.rerender)
	if p.rerender || p.said > len(r.t.said) {
		return v, nil
	}
	return v, r.t.said[:p.said]
}
