package engine

import (
	"context"
	"maps"
)

// landingWorld is the world as an on_error landing found it, before its
// on_enter ran (with how each key was last written, for the next turn's
// replay).
type landingWorld struct {
	world      World
	writtenHow map[string]string
	journal    map[string]any
	// held are the landing's own events (its exits, entries and
	// on_enter), written once its emit_intent chain has gone through
	held []Event
}

func (r *runner) landingWorld() landingWorld {
	return landingWorld{world: r.world.Snapshot(), writtenHow: maps.Clone(r.written), journal: maps.Clone(r.journal)}
}

// landingEmits fires the emit_intent hops an on_error landing's on_enter
// decided, with their events held. When they fail (a cyclic chain past
// the depth, a hop no arm takes), upstream swallows the failure as it
// does one of the landing's on_enter itself (conformance
// on-error-landing-enter-fails, landing-emits-fail): the session rests on
// the landing as swallowLanding leaves it, and the turn shows the view it
// had reached before dispatch.
// swallowed reports that case; err is a trace or interrupt.
func (r *runner) landingEmits(ctx context.Context, emits []pendingEmit, st *step, pre landingWorld) (swallowed bool, err error) {
	held := pre.held
	prev := r.t.tentative
	r.t.tentative = &held
	cur, par := r.cur, r.par.clone()
	err = r.dispatchEmits(ctx, emits, 0, st)
	r.t.tentative = prev
	if err != nil && !isTraceErr(err) && ctx.Err() == nil {
		r.note(Note{Kind: "on_error", State: r.statePath(), Text: "on_error landing's emit_intent chain failed", Error: err.Error()})
		r.cur, r.par = cur, par
		st.calls = nil
		// none of the chain's hops is written either (random
		// differential flow 316000/081)
		return true, r.swallowLanding(pre, held[:len(pre.held)])
	}
	if err != nil {
		return false, err
	}
	return false, r.flushHeld(held)
}

// swallowLanding is upstream's answer to an on_error landing whose
// on_enter, or the emit_intent chain it decided, failed: the session
// rests on the landing with the world as the landing found it, and of
// the landing's events (held) only its exits and entries are written —
// not a world.update of the effects that ran before the failure, nor a
// say (conformance on-error-landing-enter-fails, landing-effects-undone).
func (r *runner) swallowLanding(pre landingWorld, held []Event) error {
	r.world, r.written, r.journal = pre.world, pre.writtenHow, pre.journal
	for _, ev := range held {
		if ev.Kind == KindStateExited || ev.Kind == KindStateEntered {
			if err := r.write(ev); err != nil {
				return err
			}
		}
	}
	return nil
}

// flushHeld writes events held back (a landing's, a post-bind round's).
func (r *runner) flushHeld(held []Event) error {
	for _, ev := range held {
		if err := r.write(ev); err != nil {
			return err
		}
	}
	return nil
}

// dispatchSynthetic dispatches the calls of a turn no user intent asked
// for (a timeout's landing, a completion's chain) with their events held.
// Upstream renders the resting state's view after such a dispatch and,
// when that render fails, loses the dispatch: its events and its world
// writes (binds, last_job_id) are gone, though what the calls did stays
// done — a job one submitted still runs and lands (conformance
// synthetic-view-drops-dispatch).
func (r *runner) dispatchSynthetic(ctx context.Context, calls []pendingCall) (*redirect, error) {
	pre := r.landingWorld()
	var held []Event
	prev := r.t.tentative
	r.t.tentative = &held
	rd, err := r.dispatchCalls(ctx, calls)
	r.t.tentative = prev
	if err == nil && rd == nil && len(calls) > 0 && r.landingViewFails(ctx) {
		r.note(Note{Kind: "view", State: r.statePath(), Text: "the view cannot render after the calls: their results are dropped, as upstream"})
		r.world, r.written, r.journal = pre.world, pre.writtenHow, pre.journal
		return nil, nil
	}
	if e := r.flushHeld(held); e != nil {
		return rd, e
	}
	return rd, err
}
