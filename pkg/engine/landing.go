package engine

import (
	"context"
	"fmt"
	"maps"
	"reflect"

	"kitsoki/internal/jsonvalue"
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
// decided, with their events held. A failing chain is swallowed as a
// failing on_enter is (swallowLanding; conformance landing-emits-fail), and
// swallowed reports it; err is a trace or interrupt.
func (r *runner) landingEmits(ctx context.Context, emits []pendingEmit, st *step, pre landingWorld) (swallowed bool, err error) {
	held := pre.held
	prev := r.t.tentative
	r.t.tentative = &held
	// the whole place: a hop through a terminal or exit state ended the
	// session, which the swallowed chain does not (conformance
	// landing-emits-fail-terminal)
	was, lost := r.place.cloned(), r.t.lostHop
	err = r.dispatchEmits(ctx, emits, 0, st)
	r.t.tentative = prev
	if err != nil && !isTraceErr(err) && ctx.Err() == nil {
		r.note(Note{Kind: "on_error", State: r.statePath(), Text: "on_error landing's emit_intent chain failed", Error: err.Error()})
		// nor is a hop of it lost to the log a last move (conformance
		// landing-emits-lost-hop)
		r.place, r.t.lostHop = was, lost
		st.calls = nil
		return true, r.swallowLanding(pre, held[:len(pre.held)]) // none of the hops written
	}
	if err != nil {
		return false, err
	}
	return false, r.flushHeld(held)
}

// swallowLanding is upstream's answer to an on_error landing whose
// on_enter or emit chain failed: the session rests on the landing with
// the world as the landing found it, and of its held events only the
// exits and entries are written (conformance on-error-landing-enter-fails,
// landing-effects-undone).
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
// for with their events held: when the resting state's view then fails to
// render, upstream loses the dispatch's events and world writes, though
// what the calls did stays done (conformance synthetic-view-drops-dispatch).
// So it does when a failure's on_error names no state ("." included, which
// upstream looks up as written here): its dispatch fails, its binds and
// last_error are never written, and the turn goes on where the machine
// rests (conformance synthetic-on-error-not-found); dropped reports that.
func (r *runner) dispatchSynthetic(ctx context.Context, calls []pendingCall, nested bool) (rd *redirect, dropped bool, err error) {
	pre := r.landingWorld()
	var held []Event
	prev := r.t.tentative
	r.t.tentative = &held
	rd, err = r.dispatchCalls(ctx, calls)
	r.t.tentative = prev
	if err == nil && rd != nil {
		res, rerr := r.resolveTarget(r.dispatchBase(rd.e.owner, nested), rd.e.OnError, nil, false)
		if _, _, enc := r.encodedLanding(rerr); !enc && (rerr != nil || res.stay) {
			r.note(Note{Kind: "on_error", State: r.statePath(), Text: fmt.Sprintf("on_error target state %q not found: the calls' results are dropped, as upstream", rd.e.OnError), Error: rd.err})
			r.t.dropped = r.droppedWrites(pre.world)
			r.world, r.written, r.journal = pre.world, pre.writtenHow, pre.journal
			return nil, true, nil
		}
	}
	if err == nil && rd == nil && len(calls) > 0 && r.landingViewFails(ctx) {
		r.note(Note{Kind: "view", State: r.statePath(), Text: "the view cannot render after the calls: their results are dropped, as upstream"})
		r.world, r.written, r.journal = pre.world, pre.writtenHow, pre.journal
		return nil, false, nil
	}
	if e := r.flushHeld(held); e != nil {
		return rd, false, e
	}
	return rd, false, err
}

// settleSynthetic settles the step of a turn no user intent asked for (a
// timeout's landing, a job's on_complete chain and target): its emit hops
// first, then its calls. An on_error chain among them that is swallowed
// (the depth cap, a failing landing) fails upstream's dispatch there, so it
// is dropped whole: the session rests where the hops left it, with the
// world as it was before the calls — no last_error, none of the
// redirects' moves or effects — and the turn goes on (a job's later
// target: is still taken; conformance timeout-redirect-cap,
// synthetic-swallowed-chain).
func (r *runner) settleSynthetic(ctx context.Context, st *step) error {
	if _, err := r.settleEmits(ctx, st, &redirectChain{}); err != nil {
		return err
	}
	before, lost := r.save(), r.t.lostHop
	if err := r.settle(ctx, st); err != nil {
		return err
	}
	if r.t.capView != "" {
		// the dropped redirects' moves were never logged either: a hop
		// lost before them is still the last move (restLogged;
		// conformance emit-slots-non-finite-landing capped.yaml)
		r.restore(before)
		r.t.lostHop = lost
		r.t.capView, r.t.capAt, r.t.swallowed, r.t.redirectErr = "", nil, false, ""
	}
	return nil
}

// staleView is the world an on_error landing's templates read when the
// failed call was made by a job's on_complete target landing: upstream
// renders that landing against the world from before the target landed,
// with what the dispatch wrote since (binds, last_error, host_error)
// laid over it. A key the target's landing (its on_enter, its emit hops)
// changed and nothing wrote since reads its earlier value; writes still go
// to the live world, and an increment adds to the live value
// (conformance oncomplete-redirect-origin).
func (r *runner) staleView() World {
	view := World(r.world.Snapshot())
	for k, walked := range r.t.targetWalk {
		before, had := r.t.targetPre[k]
		if had && reflect.DeepEqual(before, walked) || !reflect.DeepEqual(jsonvalue.Normalize(r.world[k]), walked) {
			continue
		}
		if had {
			view[k] = before
		} else {
			delete(view, k)
		}
	}
	return view
}
