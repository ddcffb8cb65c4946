package engine

import (
	"context"
	"fmt"
	"slices"

	"kitsoki/internal/jsonvalue"
	"kitsoki/pkg/story"
)

// settle ends a walked step: the hops its emit_intent entries decided,
// then its queued host calls in order (story-runtime §2). A failed call
// with on_error drops the rest, lands the target and settles its step the
// same way (depth cap maxOnErrorDepth).
func (r *runner) settle(ctx context.Context, st *step) error {
	c := &redirectChain{}
	for {
		if done, err := r.settleEmits(ctx, st, c); done || err != nil {
			return err
		}
		if c.hops == 0 {
			c.origin, c.originAt = r.statePath(), r.cur
			if r.par != nil || r.exit != "" {
				c.originAt = nil // no post-bind pass from there (conformance cap-at-exit)
			}
		}
		if r.t.targetPre != nil && c.hops == 0 {
			r.t.targetWalk = r.world.Snapshot()
		}
		var rd *redirect
		var dropped bool
		var err error
		if r.t.synthetic {
			rd, dropped, err = r.dispatchSynthetic(ctx, st.calls, len(c.nested) > 0)
		} else {
			rd, err = r.dispatchCalls(ctx, st.calls)
		}
		st.calls = nil
		if err != nil {
			return err
		}
		if dropped && len(c.nested) > 0 {
			// a landing's call failing into an on_error that names no
			// state fails upstream's nested dispatch: the chain is
			// swallowed, as a user turn's (conformance
			// synthetic-landing-call-fails, landing-call-stays)
			r.swallowed(c.origin, c.originAt)
			return nil
		}
		if rd == nil {
			if len(c.nested) > 0 && r.landingViewFails(ctx) {
				// a landing whose view fails is swallowed (conformance
				// mutate-landing-view-fails)
				r.swallowed(c.origin, c.originAt)
				return nil
			}
			return r.unwindRedirects(c.nested, c.to)
		}
		if done, err := r.takeRedirect(ctx, rd, st, c); done || err != nil {
			return err
		}
	}
}

// redirectChain is what settle carries from one on_error redirect to the next.
type redirectChain struct {
	hops     int
	origin   string   // where the step's hops left the machine
	originAt *State   // that state outside a parallel configuration
	nested   []string // the from of each redirect taken, for unwindRedirects
	to       string   // where the last redirect lands
	preLand  landingWorld
	landView World // what the landing's templates read (turn.landView), for its hops
}

// settleEmits fires the step's pending emit_intent hops: a landing's
// through landingEmits (done when its chain failed and the turn is
// swallowed), any other after the held landing events are written.
func (r *runner) settleEmits(ctx context.Context, st *step, c *redirectChain) (done bool, err error) {
	emits := st.emits
	st.emits = nil
	if len(c.nested) == 0 || len(emits) == 0 {
		if err := r.flushHeld(c.preLand.held); err != nil {
			return true, err
		}
		c.preLand.held = nil
		return false, r.dispatchEmits(ctx, emits, 0, st)
	}
	r.t.landView = c.landView
	swallowed, err := r.landingEmits(ctx, emits, st, c.preLand)
	r.t.landView, c.landView = nil, nil
	if err != nil {
		return true, err
	}
	if swallowed {
		r.swallowed(c.origin, c.originAt)
		return true, nil
	}
	if r.exit == "" {
		c.to = r.statePath() // conformance bare-compound-target hop.yaml
	}
	return false, nil
}

// takeRedirect takes the on_error redirect rd of a failed call, or refuses it
// (the depth cap, a target that stays or names no state); done reports
// that the step is settled.
func (r *runner) takeRedirect(ctx context.Context, rd *redirect, st *step, c *redirectChain) (done bool, err error) {
	r.reach(ReachOnError, rd.e.onErrorPos)
	c.hops++
	if r.t.saidAtRedirect < 0 {
		r.t.saidAtRedirect = len(r.t.said)
	}
	if c.hops > maxOnErrorDepth+1 {
		// the sixth redirect (depth 5) is refused (story-runtime §2.4;
		// docs/compat/engine.md "Depth cap")
		r.swallowed(c.origin, c.originAt)
		return true, r.emit(KindHarnessError, map[string]any{"cap": maxOnErrorDepth, "depth": c.hops - 1,
			"message": "on_error redirect chain exceeded depth cap; staying at the originating state. A host call's on_error: arc is looping (likely the same host failing repeatedly).",
			"prior":   r.statePath(), "reason": "on_error.depth_cap_exceeded", "target": rd.e.OnError})
	}
	// the target is looked up as written: a {{ }} in it is never rendered,
	// so it names no state (conformance on-error-template-literal)
	res, err := r.resolveTarget(r.dispatchBase(rd.e.owner, len(c.nested) > 0), rd.e.OnError, nil, false)
	if path, root, ok := r.encodedLanding(err); ok {
		return r.takeEncoded(ctx, path, root, rd, st, c)
	}
	if (err != nil || res.stay) && len(c.nested) > 0 {
		// swallowed as at the depth cap (conformance landing-call-stays)
		r.note(Note{Kind: "on_error", State: r.statePath(), Text: "on_error " + rd.e.OnError + " in an on_error landing", Error: rd.err})
		r.swallowed(c.origin, c.originAt)
		return true, nil
	}
	// on_error "." or a target that names no state: the rest of the batch
	// is dropped, the step rests, and only a note says so (story-runtime §2.4)
	if err != nil {
		r.note(Note{Kind: "on_error", State: r.statePath(), Text: fmt.Sprintf("on_error target state %q not found", rd.e.OnError), Error: err.Error()})
		// upstream's turn.end has no view, as after on_error ".": the
		// rig's, from the replayed world (conformance
		// on-error-dot-replayed-view, `nf`)
		r.t.dotStay = true
		// and, as after on_error ".", a call with a bind: keeps no
		// render before a post-bind pass (conformance
		// postpass-failed-bind-no-state)
		r.t.failedBind = r.t.failedBind || len(rd.e.Bind) > 0 || st.binds
		r.unsubmit()
		return true, nil
	}
	if res.stay {
		r.t.dotStay = true
		// a step with a bind anywhere had no render before dispatch
		// (machineView), and a stay renders none after it
		// (conformance postpass-step-bind-stay)
		r.t.failedBind = r.t.failedBind || st.binds
		r.unsubmit()
		return true, nil
	}
	from := r.statePath()
	r.markRedirect(rd)
	if origin := r.t.chainOrigin; origin != "" && len(c.nested) == 0 {
		// a job's on_complete chain: upstream measures the redirect from
		// the state the completion began in, wherever the chain's hops
		// took the machine, an exit too (conformance
		// oncomplete-redirect-origin, oncomplete-redirect-climb)
		if res.state != nil && r.landTo(res) == origin {
			return true, r.unwindRedirects(append(c.nested, from), r.landTo(res))
		}
	} else if res.state != nil && r.par == nil && r.cur == res.state && r.exit == "" {
		// a redirect to the resting state moves nothing, but is a
		// redirect (conformance bare-compound-target, redirect-self-nested)
		if len(c.nested) > 0 && r.landingViewFails(ctx) {
			// upstream renders the landing as the nested dispatch
			// returns: a view that fails swallows the chain, as in
			// settle (conformance landing-self-view-fails)
			r.swallowed(c.origin, c.originAt)
			return true, nil
		}
		return true, r.unwindRedirects(append(c.nested, from), r.landTo(res))
	}
	return r.landInChain(ctx, res, from, rd, st, c)
}

// markRedirect notes on the turn that a failed call's redirect is taken.
func (r *runner) markRedirect(rd *redirect) {
	if r.t.redirectErr == "" && r.t.rerender && !r.t.submitOnly {
		// the batch had bound: the view renders again; a submission that
		// bound nothing keeps the first render (conformance
		// submit-then-redirect-empty)
		r.t.first = nil
	}
	r.t.redirectErr, r.t.rerender, r.t.applied, r.t.dropSay, r.t.submitOnly = rd.err, true, true, true, false
}

// landInChain lands the redirect's target res from the state path from,
// one more level of the chain c; done reports that the step is settled.
func (r *runner) landInChain(ctx context.Context, res target, from string, rd *redirect, st *step, c *redirectChain) (done bool, err error) {
	c.to = r.landTo(res)
	c.nested = append(c.nested, from)
	if len(c.nested) == 1 && r.t.targetWalk != nil {
		r.t.landView = r.staleView()
	}
	var failed bool
	c.preLand, failed, err = r.landRedirect(ctx, res, from, rd, st)
	// the landing's emit hops read the same world (settleEmits;
	// conformance oncomplete-landing-hop-stale)
	c.landView, r.t.landView = r.t.landView, nil
	if err != nil || failed {
		if failed { // conformance on-error-landing-enter-fails
			r.swallowed(c.origin, c.originAt)
		}
		return true, err
	}
	return false, nil
}

// landRedirect takes an on_error redirect from the state from to res: its
// machine.transition, then the landing, whose events are held in pre
// until its emit_intent chain has gone through. failed reports that the
// landing's on_enter failed (swallowLanding); err is a trace or an
// interrupt. A step that had reached an exit or terminal state is taken
// back.
func (r *runner) landRedirect(ctx context.Context, res target, from string, rd *redirect, st *step) (pre landingWorld, failed bool, err error) {
	left := r.statePath()
	r.ended, r.outcome, r.exit = false, "", ""
	if err := r.emit(KindTransition, map[string]any{"from": from, "intent": "on_error", "to": r.landTo(res)}); err != nil {
		return pre, false, err
	}
	r.note(Note{Kind: "on_error", State: from, Text: "on_error → " + res.describe(), Error: rd.err, To: res.describe()})
	pre = r.landingWorld() // st is empty: the landing queues its own step there
	prev, slots := r.t.tentative, r.slots
	r.t.tentative = &pre.held
	// the landing's on_enter runs without the turn's slots (conformance
	// on-error-landing-slots)
	r.slots = map[string]any{}
	err = r.land(ctx, res, st, left)
	r.t.tentative, r.slots = prev, slots
	switch {
	case err == nil:
		return pre, false, nil
	case isTraceErr(err) || ctx.Err() != nil:
		if ferr := r.flushHeld(pre.held); ferr != nil {
			return pre, false, ferr
		}
		return pre, false, err
	}
	r.note(Note{Kind: "on_error", State: r.statePath(), Text: "on_error landing's on_enter failed", Error: err.Error()})
	// the hops and calls the on_enter queued before it failed go with it
	// (conformance landing-enter-fails-queued)
	st.calls, st.emits = nil, nil
	return pre, true, r.swallowLanding(pre, pre.held)
}

// unwindRedirects writes one more machine.transition per nested on_error
// level, innermost first, to the final target, as upstream's nested
// dispatch does as it returns (conformance redirect-view k.yaml, j.yaml).
func (r *runner) unwindRedirects(froms []string, to string) error {
	for i := len(froms) - 1; i >= 1; i-- {
		if err := r.emit(KindTransition, map[string]any{"from": froms[i], "intent": "on_error", "to": to}); err != nil {
			return err
		}
	}
	return nil
}

// dispatchCalls dispatches queued host calls in order, each with r.cur and
// r.slots as the chain reached it. The first failure with on_error stops
// the queue and returns the redirect.
func (r *runner) dispatchCalls(ctx context.Context, calls []pendingCall) (*redirect, error) {
	cur, slots := r.cur, r.slots
	defer func() {
		if r.cur != nil {
			r.cur = cur
		}
		r.slots = slots
	}()
	if len(calls) == 0 {
		return nil, nil
	}
	r.t.dispatchState, r.t.dispatching = r.statePath(), true // a background job's origin (story-runtime §2.1)
	defer func() { r.t.dispatchState, r.t.dispatching = "", false }()
	r.t.batchCost = 0
	r.t.batchBound = nil
	if slices.ContainsFunc(calls, func(pc pendingCall) bool { return len(pc.e.Bind) > 0 }) {
		// even if it is never dispatched (conformance say-empty-view h.yaml)
		r.t.rerender, r.t.dropSay = true, true
	}
	defer func() { r.t.batchBound = nil }()
	for _, pc := range calls {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("run interrupted: %w", err)
		}
		r.cur, r.slots = pc.state, pc.slots
		r.t.renderWorld = r.overlayBatch(pc.world) // for the rendering of its with: only
		r.t.walkWorld = pc.world
		r.seedDispatch()
		rd, err := r.invoke(ctx, pc.e)
		r.t.renderWorld, r.t.walkWorld, r.t.fellBack = nil, nil, false
		if err != nil {
			return rd, err
		}
		if rd != nil {
			return rd, r.foldCost()
		}
	}
	return nil, r.foldCost()
}

// overlayBatch is the world a queued call's with: renders against: its
// walk-time snapshot with the batch's earlier binds laid over it
// (story-runtime §2.1); nil for nil (the live world).
func (r *runner) overlayBatch(snap World) World {
	if snap == nil {
		return nil
	}
	w := snap.Snapshot()
	for _, k := range r.t.batchBound {
		setPath(w, k, jsonvalue.Normalize(getPath(r.world, k)))
	}
	return w
}

// foldCost folds the agent cost of the batch just dispatched into the
// world (story-runtime §2.6): turn_cost_usd is the batch's sum,
// session_cost_usd grows by it; an event only when a value changes.
func (r *runner) foldCost() error {
	sum := r.t.batchCost
	r.t.batchCost = 0
	set := map[string]any{}
	if cur, _ := r.world[story.WorldTurnCostUSD].(float64); cur != sum || r.world[story.WorldTurnCostUSD] == nil && sum > 0 {
		if _, declared := r.world[story.WorldTurnCostUSD]; declared || sum > 0 {
			r.world[story.WorldTurnCostUSD] = sum
			set[story.WorldTurnCostUSD] = sum
		}
	}
	if sum > 0 {
		prev, _ := r.world[story.WorldSessionCostUSD].(float64)
		r.world[story.WorldSessionCostUSD] = prev + sum
		set[story.WorldSessionCostUSD] = prev + sum
	}
	if len(set) == 0 {
		return nil
	}
	return r.emit(KindWorldUpdate, map[string]any{"set": set})
}
