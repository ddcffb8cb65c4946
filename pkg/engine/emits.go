package engine

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// maxPostBindDepth caps the post-bind pass's rounds (upstream's
// OrchestratorPostBindMaxDepth, story-runtime §1.9).
const maxPostBindDepth = 4

// pendingEmit is an emit_intent entry the chain decided at walk time:
// the intent it names and the slots it sends.
type pendingEmit struct {
	name  string
	slots map[string]any
}

// walkEmit decides an emit_intent entry where the chain reaches it
// (story-runtime §1.7, conformance probe 01): a false or not yet
// evaluable when: or an empty name queues nothing; a name or slot template
// that fails is turn-fatal.
func (r *runner) walkEmit(e *Effect, st *step) error {
	env := r.env(r.slots, nil)
	if ok, err := e.When.eval(env); err != nil || !ok {
		return nil
	}
	return r.decideEmit(e, env, st)
}

// decideEmit queues the hop of an emit_intent entry whose when: has
// passed, its name and slots rendered against env. An entry carrying a
// kind too passes or fails its when: once, before the kind runs: what the
// kind writes never takes its hop back (conformance emit-entry-when-once).
func (r *runner) decideEmit(e *Effect, env map[string]any, st *step) error {
	name, slots, err := emitNameSlots(e, env, r.so.Strict)
	if err != nil && r.t.emitsOnly {
		return nil // conformance par-leave-emit-error
	}
	if err != nil || name == "" {
		return err
	}
	st.emits = append(st.emits, pendingEmit{name: name, slots: slots})
	return nil
}

// emitNameSlots renders an emit_intent entry's name and slots. A value
// holding NaN or an infinity goes on as upstream's does (a name "NaN"
// has no arm; a slot keeps it, and the hop's machine.transition is lost
// to the log: lostHop); strict refuses it.
func emitNameSlots(e *Effect, env map[string]any, strict bool) (string, map[string]any, error) {
	v, err := e.Emit.render(env)
	if err = keptNonFinite(err, strict); err != nil {
		return "", nil, fmt.Errorf("%s: emit_intent: %w", e.Pos, err)
	}
	name := strings.TrimSpace(toString(v))
	if name == "" {
		return "", nil, nil
	}
	slots := map[string]any{}
	for _, s := range e.Slots {
		sv, err := s.Value.render(env)
		if err = keptNonFinite(err, strict); err != nil {
			return "", nil, fmt.Errorf("%s: slots.%s: %w", e.Pos, s.Key, err)
		}
		slots[s.Key] = sv
	}
	return name, slots, nil
}

// dispatchEmits fires decided emits depth-first, queuing their calls on st
// (story-runtime §1.9). The gate is checked once per list, before its
// first emit; an emit left after an exit fails there, having no arm
// (conformance emit-after-exit).
func (r *runner) dispatchEmits(ctx context.Context, emits []pendingEmit, depth int, st *step) error {
	for i, pe := range emits {
		if r.ended && r.outcome == OutcomeExit {
			return r.noArmMatched(pe.name)
		}
		if depth+1 > maxEmitDepth {
			return fmt.Errorf("emit_intent: dispatch exceeded max depth (%d) at state %q — likely a cyclic emit chain", maxEmitDepth, r.statePath())
		}
		if i == 0 {
			if stop, err := r.gateStops(emits, depth, r.t.inPostBind); err != nil || stop {
				return err
			}
		}
		if err := r.emit(KindEmitIntent, map[string]any{"intent": pe.name, "slots": pe.slots, "depth": depth + 1}); err != nil {
			return err
		}
		r.note(Note{Kind: "emit", State: r.statePath(), Text: pe.name + slotText(pe.slots)})
		if !r.t.hopped() && r.t.inPostBind {
			r.t.emitSay = len(r.t.said) // the view keeps what the post-bind hops say
		}
		if err := r.fire(ctx, pe.name, pe.slots, depth+1, st); err != nil {
			return err
		}
	}
	return nil
}

// postBind is upstream's post-bind pass (story-runtime §1.9, conformance
// probe 02): after a user turn's calls with no redirect, the resting
// state's own on_enter emits are decided again with empty slots, and the
// pass repeats while a round queued calls, up to maxPostBindDepth. A
// failing round is discarded whole with a harness.error (conformance
// mutate-postbind-redirect for a round's own redirect).
func (r *runner) postBind(ctx context.Context) error {
	if r.t.redirectErr != "" {
		return nil
	}
	// where a round's capped on_error chain left the session, while the
	// pass goes on from its landing (conformance cap-postbind-repeats)
	var chainEnd *chainRest
	// a round whose calls redirected keeps the render too: the landing's,
	// when it renders something (conformance postbind-redirect-landing-view),
	// else the one before it, as keepPrePass decides for any round
	// (postbind-redirect-next-round)
	loggedAt := r.t.loggedAt
	defer func() {
		if chainEnd != nil {
			r.place, r.t.redirectErr = chainEnd.place, chainEnd.redirectErr
		}
		r.t.loggedAt = loggedAt
	}()
	for depth := 0; ; depth++ {
		if r.so.MachineOnly || r.par != nil || r.cur == nil || r.ended && r.outcome == OutcomeExit {
			return nil
		}
		if depth > maxPostBindDepth {
			msg := fmt.Sprintf("settlePostBindEmits: orchestrator recursion depth %d exceeded cap %d (likely YAML cycle: host-call binds key that gates emit_intent that lands on state with another host-call binding the same key)", depth, maxPostBindDepth)
			return r.emit(KindHarnessError, map[string]any{"depth": depth, "error": msg, "max_depth": maxPostBindDepth, "phase": "settle_post_bind_emits"})
		}
		n := len(r.t.events)
		st, err := r.postBindRound(ctx, chainEnd == nil)
		if err != nil || st == nil {
			return err
		}
		if chainEnd != nil && hopped(r.t.events[n:]) {
			chainEnd = nil // a hop moved the session on from the landing
			r.t.capView, r.t.capPostBind = "", false
			// its view falls back as after any post-bind hop
			// (conformance cap-postbind-hop-view-fails)
			r.t.swallowed = false
		}
		if len(st.calls) == 0 {
			return nil
		}
		capAt := r.t.capAt
		r.t.postSettle = true
		err = r.settle(ctx, st)
		r.t.postSettle = false
		if err != nil {
			return err
		}
		if at := r.t.capAt; at != nil && at != capAt && r.t.capPostBind {
			// the next round decides the landing's emits
			chainEnd = &chainRest{place: r.place, redirectErr: r.t.redirectErr}
			r.t.loggedAt = &chainEnd.place
			r.t.capAt = nil
			r.place = place{cur: at}
			r.t.redirectErr = ""
		}
	}
}

// chainRest is where a capped on_error chain left the session.
type chainRest struct {
	place
	redirectErr string
}

// postBindRound decides and fires the resting state's on_enter emits
// once; nil when nothing fired or the round was discarded. keep: the
// round keeps the render before it; a round after a capped one does not,
// so the render from before the capped round stays (conformance
// cap-postbind-hop-view-fails).
func (r *runner) postBindRound(ctx context.Context, keep bool) (*step, error) {
	env := r.env(map[string]any{}, nil)
	var emits []pendingEmit
	var decided []Pos // the entries the round fires, reached once it stands
	for _, e := range r.cur.OnEnter {
		if e.Emit == nil {
			continue
		}
		ok, err := e.When.eval(env)
		if err != nil {
			return nil, r.postBindFailed(fmt.Sprintf("post-bind emit_intent when %q: eval: %v", e.When.src, errors.Unwrap(err)))
		}
		if !ok {
			continue
		}
		name, slots, err := emitNameSlots(e, env, r.so.Strict)
		if err != nil {
			return nil, r.postBindFailed(err.Error())
		}
		if name != "" {
			emits = append(emits, pendingEmit{name: name, slots: slots})
			decided = append(decided, e.Pos)
		}
	}
	if len(emits) == 0 {
		return nil, nil
	}
	sv, said, slots, emitSay, pre, lost := r.save(), len(r.t.said), r.slots, r.t.emitSay, r.t.prePass, r.t.lostHop
	if keep {
		r.keepPrePass(ctx)
	}
	var held []Event
	r.t.tentative, r.t.inPostBind = &held, true
	r.slots = map[string]any{}
	st := &step{}
	err := r.dispatchEmits(ctx, emits, 0, st)
	r.t.tentative, r.t.inPostBind = nil, false
	if err != nil {
		if isTraceErr(err) {
			return nil, err
		}
		// the round's hops were never logged: a hop lost in it is no
		// last move (conformance postbind-discard-lost-hop)
		r.restore(sv)
		r.t.said, r.slots, r.t.emitSay, r.t.prePass, r.t.lostHop = r.t.said[:said], slots, emitSay, pre, lost
		return nil, r.postBindFailed(err.Error())
	}
	if err := r.flushHeld(held); err != nil {
		return nil, err
	}
	for _, p := range decided {
		r.reach(ReachEffect, p)
	}
	if r.t.hopped() && r.t.emitSayEnd < 0 {
		r.t.emitSayEnd = len(r.t.said)
	}
	return st, nil
}

// postBindFailed records a discarded post-bind round.
func (r *runner) postBindFailed(msg string) error {
	r.note(Note{Kind: "emit", State: r.statePath(), Text: "post-bind emit_intent pass discarded", Error: msg})
	return r.emit(KindHarnessError, map[string]any{"error": msg, "phase": "dispatch_post_bind_emits"})
}
