package engine

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
)

func (r *runner) beginTurn() {
	r.readBackWritten()
	r.replayWorld()
	r.seed(r.world)
	r.t = newTurn()
}

// beginSyntheticTurn starts a turn no user intent asked for (a timeout, a
// background completion): it takes the next turn number at the current
// state with no slots, and returns that state, the saved run to restore if
// the turn fails, and the Turn to fill.
func (r *runner) beginSyntheticTurn() (from string, sv saved, t *Turn) {
	r.beginTurn()
	r.t.synthetic = true
	r.t.unsent = &[]Event{}
	from = r.statePath()
	sv = r.save()
	r.turn++
	r.turnState = from
	r.slots = nil
	return from, sv, &Turn{Number: r.turn, State: from}
}

// userTurn is one explicit-intent turn (story-runtime.md §1.3-§1.12).
func (r *runner) userTurn(ctx context.Context, in Input) (*Turn, error) {
	r.beginTurn()
	r.chain = inputChain{}
	from := r.statePath()
	r.phaseState = from
	t := &Turn{State: from}
	// Checks that write no event and use no turn number: a missing
	// required slot is a clarification (story-runtime §1.2).
	rej := r.checkAllowed(in.Intent)
	var slots map[string]any
	if rej == nil {
		name := in.Intent
		if r.par == nil {
			name = aliasFrom(r.cur, in.Intent)
		}
		slots, rej = r.inputSlots(name, in.Slots)
		if rej != nil && rej.Code == CodeMissingSlots {
			t.Rejection, t.Number = rej, r.turn
			r.resortListed() // a refusal all the same
			return t, nil
		}
	}
	sv := r.save()
	r.turn++
	t.Number = r.turn
	r.turnState = from
	input := cmp.Or(in.Display, "[intent] "+in.Intent)
	startInput := cmp.Or(in.Start, input)
	if err := r.emit(KindTurnInput, map[string]any{"input": input, "intent": in.Intent}); err != nil {
		return t, err
	}
	if err := r.emit(KindTurnStart, map[string]any{"direct": true, "input": startInput, "turn": r.turn}); err != nil {
		return t, err
	}
	r.note(Note{Kind: "intent", State: from, Text: in.Intent + slotText(in.Slots)})
	var err error
	if rej == nil {
		rej, err = r.walkTurn(ctx, in.Intent, slots)
	}
	if rej != nil {
		return r.rejectTurn(t, from, in.Intent, rej)
	}
	if err != nil {
		return r.failTurn(t, from, sv, err, map[string]any{"error": err.Error(), "intent": in.Intent, "slots": slots, "state": from})
	}
	to := r.statePath()
	r.restedTerminal()
	if r.t.capView != "" {
		// a swallowed on_error chain arms the originating state's
		// timeout, not the resting state's (conformance
		// swallowed-redirect-timer, cap-origin-timer)
		to = r.t.capView
		r.armOrigin(r.t.capView)
	} else if r.terminalAt() != nil { // conformance storymut-terminal-no-timeout
		r.timer = nil
	} else {
		r.arm()
	}
	end := map[string]any{"outcome": "transitioned", "to": to}
	if v := r.renderView(ctx, slots); v != "" {
		end["view"] = v
		t.View = v
	}
	t.RigView = r.t.rigView
	if !r.so.MachineOnly {
		r.restLogged()
	}
	if to == "" && r.statePath() == "" && !r.so.MachineOnly {
		// the machine went to the empty path (a rendered ".." on a
		// top-level state): upstream's session keeps the state that move
		// left (the turn's own state for its arm, an emit hop's source
		// after an arc moved on: conformance job-origin-empty-path), with
		// the turn's writes (conformance template-target-above-top)
		back := sv.place
		if r.t.emptyFrom != nil {
			back = *r.t.emptyFrom
		}
		defer func() { r.place = back }()
		// turn.end's view is the turn's narration alone (the empty path
		// has no view; conformance empty-path-narration); with none it
		// has no view, and the flow rig renders where the session rests,
		// from the live world (the state a later hop left, not the one
		// the calls were queued in)
		delete(end, "view")
		t.View = ""
		if said := joinSaid(r.turnSaid(true)); said != "" {
			end["view"] = said
			t.View = said
		} else {
			cur := r.place
			r.place = back
			path := r.statePath()
			r.place = cur
			if v, err := r.renderAt(ctx, path, r.world.Snapshot(), nil, false); err == nil {
				t.View = v
			}
		}
	}
	return r.closeTurn(t, from, end)
}

// walkTurn fires a user turn's intent and settles it (machine view, calls,
// post-bind pass); a refused intent is rej.
func (r *runner) walkTurn(ctx context.Context, intent string, slots map[string]any) (rej *Rejection, err error) {
	st := &step{}
	if err := r.fire(ctx, intent, slots, 0, st); err != nil {
		if errors.As(err, &rej) {
			return rej, nil
		}
		return nil, err
	}
	if err := r.machineView(ctx, slots, st); err != nil {
		return nil, err
	}
	if err := r.settle(ctx, st); err != nil {
		return nil, err
	}
	if err := r.postBind(ctx); err != nil {
		return nil, err
	}
	return nil, r.swallowedPostBind(ctx)
}

// rejectTurn ends a turn whose intent was refused with validation_failed.
func (r *runner) rejectTurn(t *Turn, from, intent string, rej *Rejection) (*Turn, error) {
	p := map[string]any{"code": rej.Code, "intent": intent, "state": rej.State}
	if rej.Code == CodeGuardFailed {
		p["guard_hint"] = rej.GuardHint
	} else {
		p["message"] = rej.Message // a missing slot is refused with no event (userTurn)
	}
	if e := r.emit(KindValidationFailed, p); e != nil {
		return t, e
	}
	t.Rejection = rej
	r.resortListed()
	return r.closeTurn(t, from, map[string]any{"code": rej.Code, "outcome": "rejected"})
}

// failTurn ends a turn that failed with err (story-runtime §1.12): the
// session back as sv saved it, machine.error (payload me, when given) and
// turn.end with the error. A trace that cannot be written ends the session.
func (r *runner) failTurn(t *Turn, from string, sv saved, err error, me map[string]any) (*Turn, error) {
	if isTraceErr(err) {
		return t, err
	}
	r.restore(sv)
	if me != nil {
		_ = r.emitAt(from, KindMachineError, me)
	}
	t.Err = err
	return r.closeTurn(t, from, map[string]any{"error": err.Error(), "outcome": "error"})
}

// restedTerminal notes that a user turn the machine took left the session
// in a terminal state: upstream's job listener stops for good.
func (r *runner) restedTerminal() {
	if r.ended && r.outcome == OutcomeExit {
		r.turnExited = true
		return
	}
	if r.t.capView != "" {
		// a swallowed on_error chain: upstream's turn result names the
		// target the depth cap refused (turn.end's to), and its listener
		// stops when that one is terminal, wherever the session rests
		// (conformance cap-listener-terminal)
		if st := r.m.States[r.t.capView]; st == nil || !st.Terminal {
			return
		}
	} else if r.terminalAt() == nil {
		return
	}
	r.jobs.mu.Lock()
	defer r.jobs.mu.Unlock()
	if r.listenerGone {
		r.jobs.unhearLocked(r.now())
		return
	}
	r.listenerGone = true
	r.jobs.hearLocked(r.now(), r.statePath())
}

// closeTurn writes turn.end (payload end, credited to state from) and
// fills t with the turn's events and resting state. A timeout's or a
// job's turn that did not fail rests where upstream's log leaves it, as a
// user turn does (restLogged; conformance emit-slots-non-finite-landing).
func (r *runner) closeTurn(t *Turn, from string, end map[string]any) (*Turn, error) {
	if err := r.emitAt(from, KindTurnEnd, end); err != nil {
		return t, err
	}
	if r.t.synthetic && t.Err == nil && !r.so.MachineOnly {
		r.restLogged()
	}
	if r.t.synthetic && t.Err != nil {
		// upstream's failed timeout or completion writes nothing to its
		// log, whose highest turn numbers the next one: the number is
		// taken again (conformance synthetic-fail-turn-number)
		r.turn--
	}
	t.Events, t.State = r.t.events, r.statePath()
	return t, r.sendOrDrop(t.Err != nil)
}

// sendOrDrop ends a synthetic turn's hold on its events: they go to the
// sink, or nowhere when the turn failed, as upstream's log keeps nothing
// of it and the next turn takes its number (conformance
// synthetic-fail-turn-number); the turn's own events keep them.
func (r *runner) sendOrDrop(drop bool) error {
	unsent := r.t.unsent
	r.t.unsent = nil
	if unsent == nil || drop {
		return nil
	}
	for _, ev := range *unsent {
		if err := r.send(ev); err != nil {
			return err
		}
	}
	return nil
}

// traceErr marks a failure to write the trace (the session cannot go on).
type traceErr struct{ err error }

func (e *traceErr) Error() string {
	if msg := e.err.Error(); strings.HasPrefix(msg, "trace: ") {
		return msg // the trace writer's own errors say so already
	}
	return "trace: " + e.err.Error()
}

func (e *traceErr) Unwrap() error { return e.err }

func isTraceErr(err error) bool {
	var te *traceErr
	return errors.As(err, &te)
}

func slotText(s map[string]any) string {
	var b strings.Builder
	for _, k := range slices.Sorted(maps.Keys(s)) {
		fmt.Fprintf(&b, " %s=%v", k, s[k])
	}
	return b.String()
}
