package engine

import (
	"context"
	"fmt"
	"maps"

	"kitsoki/internal/jsonvalue"
	"kitsoki/pkg/story"
)

// completionTurn is the synthetic turn of a finished background job
// (story-runtime §5).
func (r *runner) completionTurn(ctx context.Context, j *job, status, errMsg string, data map[string]any) (*Turn, error) {
	from, sv, t := r.beginSyntheticTurn()
	r.t.noStatePath = true
	sevs := map[string]string{JobDone: "success", JobFailed: "error", JobCancelled: "warn"}
	verb := map[string]string{JobDone: "finished", JobFailed: "failed", JobCancelled: "cancelled"}
	r.note(Note{Kind: "job", State: from, Text: fmt.Sprintf("job %s (%s) %s", j.info.ID, j.info.Namespace, verb[status]), Error: errMsg})
	if err := r.emitAt("", KindTurnStart, map[string]any{"job_id": j.info.ID, "kind": "background_completion", "turn": r.turn}); err != nil {
		return t, err
	}
	err := r.runOnComplete(ctx, j, status, data)
	if err == nil && r.unloggable() {
		err = errUnloggable
	}
	if err != nil && isTraceErr(err) {
		return t, err
	}
	if err != nil {
		r.restore(sv)
		r.note(Note{Kind: "job", State: from, Text: "on_complete of job " + j.info.ID, Error: err.Error()})
		_ = r.emitAt("", KindMachineError, map[string]any{"error": err.Error(), "state": from, "job_id": j.info.ID})
		t.Err = err
	}
	done := map[string]any{"job_id": j.info.ID, "status": status}
	if errMsg != "" {
		done["error"] = errMsg
	}
	if e := r.emitAt("", KindJobCompleted, panicStack(done, j.err)); e != nil {
		return t, e
	}
	if err != nil || r.listenerGone || r.turnExited {
		// no notification once upstream's listener stopped (conformance
		// host-oncomplete-fails, storymut-terminal-job-no-notice); an
		// exit a chain's hop took posts it (oncomplete-exit-hop-notice)
		return r.closeTurn(t, "", map[string]any{"job_status": status, "outcome": "background_completion"})
	}
	// the counts before the job's own notice (trace-eval.md A.7)
	unread, attention := r.inbox.counts()
	r.inbox.post(InboxItem{Title: "Job " + verb[status] + ": " + j.info.Namespace, Body: errMsg, Severity: sevs[status], JobID: j.info.ID, State: j.info.State})
	// the world holds it from here on, as upstream's replayed log does
	// (conformance job-inbox-world)
	r.world[story.WorldInbox] = map[string]any{"needs_attention": attention, "unread": unread}
	if e := r.emitAt("", KindWorldUpdate, map[string]any{"set": map[string]any{story.WorldInbox: map[string]any{"needs_attention": attention, "unread": unread}}}); e != nil {
		return t, e
	}
	return r.closeTurn(t, "", map[string]any{"job_status": status, "outcome": "background_completion"})
}

// runOnComplete runs a job's on_complete chain from its origin state
// (skipped when the session has moved on, unless the job was received
// there: jobs_heard.go), then its foreground calls, then
// the first target whose when: passes.
func (r *runner) runOnComplete(ctx context.Context, j *job, status string, data map[string]any) error {
	if r.listenerGone && !j.heard {
		r.note(Note{Kind: "job", State: r.statePath(), Text: "job " + j.info.ID + " ended after the session was terminal: on_complete skipped"})
		return nil
	}
	if !j.received && r.statePath() != j.info.State || r.ended && r.outcome == OutcomeExit {
		r.note(Note{Kind: "job", State: r.statePath(), Text: "job " + j.info.ID + " ended after the session left " + j.info.State + ": on_complete skipped"})
		return nil
	}
	var result any
	if data != nil {
		result = jsonvalue.Normalize(data)
	}
	// no event: the next turn has them as they were (conformance host-last-job-in-memory)
	defer r.setInMemory(map[string]any{story.WorldLastJobID: j.info.ID, story.WorldLastJobStatus: status, story.WorldLastJobResult: result})()
	if len(j.e.OnComplete) == 0 {
		return nil
	}
	var st step
	if err := r.runEffects(ctx, j.e.OnComplete, &st); err != nil {
		return err
	}
	r.t.redirectErr = ""
	r.t.chainOrigin = j.info.State
	r.t.dropped = nil
	err := r.settleSynthetic(ctx, &st)
	r.t.chainOrigin = ""
	if err != nil {
		return err
	}
	// a dropped dispatch's writes stay in memory for the target (dropped.go)
	defer r.holdDropped(r.t.dropped)()
	r.t.dropped = nil
	if r.t.redirectErr != "" {
		// an on_error redirect wins over target:
		return nil
	}
	// a hop that ended the session (a terminal state, an exit) does not:
	// the target is still taken, as upstream (conformance
	// oncomplete-hop-terminal)
	tgt, err := r.completionTarget(j.e.OnComplete)
	if tgt == nil || err != nil {
		return err
	}
	r.reach(ReachOnComplete, tgt.targetPos)
	for _, x := range tgt.exits {
		r.reach(ReachExit, x.pos)
	}
	// the target entry's inline effects never run (docs/compat/engine.md)
	// read from where the chain's hops left the session: the origin leaf
	// when none moved it (conformance oncomplete-target-after-hop)
	res, err := r.completionDest(ctx, tgt.Target, r.statePath())
	if err != nil {
		// dropped alone, as upstream's job.error: the chain's writes and
		// the job's notification stand (conformance oncomplete-target-expr)
		r.note(Note{Kind: "job", State: r.statePath(), Text: "on_complete target dropped: the session stays, as upstream", Error: fmt.Sprintf("%s: on_complete target: %v", tgt.Pos, err)})
		return nil
	}
	if res.stay {
		return nil
	}
	return r.completionMove(ctx, res, &st)
}

// completionMove takes an on_complete target; a move that fails is
// dropped alone, as upstream (conformance oncomplete-move-fails).
func (r *runner) completionMove(ctx context.Context, res target, st *step) error {
	pre := r.landingWorld()
	was, lost, logged := r.place.cloned(), r.t.lostHop, r.t.loggedAt
	ended, outcome, exit := r.ended, r.outcome, r.exit
	r.ended, r.outcome, r.exit = false, "", "" // leaving where a hop ended it (a failed move puts it back)
	r.t.targetPre = pre.world
	defer func() { r.t.targetPre, r.t.targetWalk = nil, nil }()
	var held []Event
	prev := r.t.tentative
	r.t.tentative = &held
	err := r.emit(KindTransition, map[string]any{"from": r.statePath(), "intent": "__on_complete_target__", "to": r.landTo(res)})
	if err == nil {
		err = r.land(ctx, res, st, r.statePath()) // st is settled: empty
	}
	if err == nil {
		err = r.settleSynthetic(ctx, st)
	}
	r.t.tentative = prev
	if err != nil && !isTraceErr(err) && ctx.Err() == nil {
		r.note(Note{Kind: "job", State: r.statePath(), Text: "on_complete target's move failed: dropped, as upstream", Error: err.Error()})
		r.world, r.written, r.journal = pre.world, pre.writtenHow, pre.journal
		// nor was its machine.transition logged: a hop of the chain lost
		// to upstream's log is still the last move (conformance
		// oncomplete-move-fails-lost-hop)
		r.place, r.t.lostHop, r.t.loggedAt = was, lost, logged
		r.ended, r.outcome, r.exit = ended, outcome, exit
		st.calls = nil
		return nil
	}
	if e := r.flushHeld(held); e != nil {
		return e
	}
	return err
}

// setInMemory sets world keys with no event and returns what puts them
// back: each key but one a world.update of this turn wrote since, which
// upstream's log keeps (a chain's set: last_job_id, a target's on_enter:
// conformance oncomplete-sets-last-job).
func (r *runner) setInMemory(set map[string]any) (restore func()) {
	before := map[string]any{}
	for k := range set {
		if v, ok := r.world[k]; ok {
			before[k] = v
		}
	}
	maps.Copy(r.world, set)
	return func() {
		for k := range set {
			if _, wrote := r.writtenNow(k); wrote {
				continue
			}
			if v, ok := before[k]; ok {
				r.world[k] = v
			} else {
				delete(r.world, k)
			}
		}
	}
}

// completionTarget is the first on_complete target entry whose when: passes.
func (r *runner) completionTarget(entries []*Effect) (*Effect, error) {
	for _, e := range entries {
		if e.Target == nil {
			continue
		}
		ok, err := e.When.eval(r.env(nil, nil))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", e.Pos, err)
		}
		if ok {
			return e, nil
		}
	}
	return nil, nil
}
