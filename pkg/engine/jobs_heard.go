package engine

import (
	"context"
	"time"
)

// hearLocked marks the jobs upstream's listener still hears when a user
// turn first rests the session in a terminal state at path at
// (restedTerminal); it is called with the store locked. A job already
// finished then is heard (conformance storymut-terminal-heard-job; a
// process still running is not, job-process-real-time), and while such a
// completion keeps the listener busy, every job pending then is heard
// too: upstream either aborts the run or lands them (conformance
// terminal-heard-keeps-pending), except one that asks a clarification,
// never heard (conformance terminal-clarify-unheard). A heard job lands after the next user
// turn (landHeard) or at an advance, never before a user turn
// (nextDueJob), and one that finished in its origin state runs its
// on_complete wherever the session rests by then: upstream's listener
// took it in before the session moved (conformance
// terminal-heard-lands-after-view).
func (s *jobStore) hearLocked(now time.Time, at string) {
	heard := false
	for _, j := range s.jobs {
		if finishedBy(j, now) {
			j.heard, heard = true, true
			j.received = j.info.State == at
		}
	}
	if !heard {
		return
	}
	for _, j := range s.jobs {
		if !j.applied && j.ans.clar == nil {
			j.heard = true
		}
	}
}

// unhearLocked is a later user turn resting in a terminal state: the
// listener stops for good, so the pending jobs hearLocked kept are heard
// no longer (conformance terminal-heard-keeps-pending); the finished ones
// it took in still land at the next advance (terminal-heard-lands-after-view). It
// is called with the store locked.
func (s *jobStore) unhearLocked(now time.Time) {
	for _, j := range s.jobs {
		if !finishedBy(j, now) {
			j.heard = false
		}
	}
}

// finishedBy reports whether j is an unlanded job whose result was in by
// now. A job that asks a clarification has not finished before it lands,
// answered or not (conformance terminal-clarify-unheard).
func finishedBy(j *job, now time.Time) bool {
	return !j.applied && j.settled && j.ans.clar == nil && !j.due.After(now)
}

// landHeard lands, after a user turn that found the listener gone
// already, the heard jobs finished by then: upstream's listener applies
// them while that turn ends, after its view was rendered, before the
// flow rig reads its state and world (conformance
// terminal-heard-lands-after-view). One whose on_complete names a target
// waits for the next advance, where upstream keeps the session nearly
// always (the counts: docs/compat/engine.md "A heard completion with a
// target"). One lands in the gap before the next user turn, as
// landBetween's (conformance jobs-land-one-per-gap `heard`); its events go
// to the trace and to no fixture turn.
func (r *runner) landHeard(ctx context.Context) error {
	vc, ok := r.clock.(*VirtualClock)
	if !ok {
		return nil
	}
	now := vc.Now()
	return r.stepDue(ctx, func() *job {
		if r.gapLanded {
			return nil
		}
		r.jobs.mu.Lock()
		defer r.jobs.mu.Unlock()
		for _, j := range r.jobs.unlandedLocked() {
			if j.heard && finishedBy(j, now) && j.info.Status != JobAwaiting && j.answer == nil && !completesTo(j.e) {
				r.gapLanded = true
				return j
			}
		}
		return nil
	}, &Turn{}, "jobs")
}

// completesTo reports whether e's on_complete names a target.
func completesTo(e *Effect) bool {
	for _, c := range e.OnComplete {
		if c.Target != nil {
			return true
		}
	}
	return false
}
