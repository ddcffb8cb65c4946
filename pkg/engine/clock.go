package engine

import (
	"context"
	"fmt"
	"sync"
	"time"

	"kitsoki/internal/human"
)

// Clock is the run's source of time. Timeouts, background-job delays and
// event timestamps read it. A real run uses the wall clock; kitsoki test
// passes a *VirtualClock that only Session.Advance moves.
type Clock interface {
	Now() time.Time
}

// VirtualClock is a clock that never moves on its own: Session.Advance
// moves it (flow-format.md §5). It is safe for concurrent use.
type VirtualClock struct {
	mu  sync.Mutex
	now time.Time
}

// NewVirtualClock returns a virtual clock reading start (the flow rig uses
// the Unix epoch).
func NewVirtualClock(start time.Time) *VirtualClock { return &VirtualClock{now: start} }

// Now returns the clock's time.
func (c *VirtualClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// set moves the clock to t (never backwards).
func (c *VirtualClock) set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if t.After(c.now) {
		c.now = t
	}
}

// advance moves the virtual clock by d in one step as upstream's flow rig
// does (flow-format.md §5.2; docs/compat/engine.md "One advance, one
// step"): the world replayed, the armed timeout fired if due, then the
// jobs already due and every job due by the end, each completed in
// submission order (nextDueJob). With
// counted, the turn keeps none of their events (AdvanceClock).
func (r *runner) advance(ctx context.Context, vc *VirtualClock, d time.Duration, counted bool) (*Turn, error) {
	r.replayWorld()
	out := &Turn{State: r.statePath(), Number: r.turn, counted: counted}
	if d <= 0 {
		return out, nil
	}
	if err := r.parkProcesses(ctx); err != nil {
		return out, err
	}
	start := vc.Now()
	end := start.Add(d)
	vc.set(end)
	// a job the last advance's timeout started and did not land, which
	// upstream's listener took after that drain, lands before the timeout
	// (conformance job-timeout-started next_timeout)
	if err := r.stepDue(ctx, r.heldOverJob, out, "advance"); err != nil {
		return out, err
	}
	// the jobs those landings started are not the timeout's: they land in
	// this advance (conformance job-held-over-starts-job)
	held := r.jobs.count()
	if tm := r.timer; tm != nil && !tm.deadline.After(end) {
		t, err := r.timeoutTurn(ctx)
		if err != nil {
			return out, err
		}
		out.merge(t)
	}
	started := r.jobs.count()
	defer r.holdTimeoutJobs(held, started, false)
	r.holdTimeoutJobs(held, started, true)
	others := 0
	for i := 0; ; i++ {
		// a job already due when the advance starts (a stub with no delay,
		// an agent call failing at once) lands before those the advance
		// makes due: upstream's listener holds it already (conformance
		// jobs-due-before-advance)
		if err := r.stepDue(ctx, counting(r.dueBy(start, start, true), &others), out, "advance"); err != nil {
			return out, err
		}
		if err := r.stepDue(ctx, counting(r.dueBy(start, end, true), &others), out, "advance"); err != nil {
			return out, err
		}
		// the jobs the timeout's landing started land once another has
		// (conformance job-timeout-started)
		if others > 0 && r.holdTimeoutJobs(held, started, false) {
			continue
		}
		// a process an on_complete started lands in the same advance:
		// upstream's drain waits for it
		if i > 10000 || !r.processRunning() {
			break
		}
		if err := r.parkProcesses(ctx); err != nil {
			return out, err
		}
	}
	out.State = r.statePath()
	return out, nil
}

// parkProcesses waits, as upstream's park barrier before a positive
// advance, until every job that runs a process in real time
// (startsProcess) has ended; the advance then lands them in submission
// order after the armed timeout, as upstream (conformance
// job-process-real-time).
func (r *runner) parkProcesses(ctx context.Context) error {
	for {
		running, ch := r.processRunningCh()
		if !running {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("advance_clock: waiting for a background job's process: %w", ctx.Err())
		case <-ch:
		}
	}
}

// processRunning reports whether a job still runs its process.
func (r *runner) processRunning() bool {
	running, _ := r.processRunningCh()
	return running
}

// processRunningCh is processRunning with the channel the next change of
// the job store closes, read together so that no change is missed.
func (r *runner) processRunningCh() (bool, <-chan struct{}) {
	s := r.jobs
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, j := range s.unlandedLocked() { // a landed job is settled
		if j.process && !j.settled {
			return true, s.notify
		}
	}
	return false, s.notify
}

// holdTimeoutJobs marks (or, with on false, clears) the jobs submitted
// from index from to index to, those the landing of the advance's timeout started,
// as waiting for another job to land in the advance: upstream's drain
// ends once its scheduler is idle, before its listener lands a job due at
// once that such a landing started, unless another job's landing keeps it
// going (docs/compat/engine.md "A job a timeout's landing starts"). It
// reports whether any job changed.
func (r *runner) holdTimeoutJobs(from, to int, on bool) bool {
	s := r.jobs
	s.mu.Lock()
	defer s.mu.Unlock()
	changed := false
	for _, j := range s.jobs[from:to] {
		if j.waitOther != on {
			j.waitOther, changed = on, true
		}
		j.heldOver = !on && !j.applied
	}
	return changed
}

// heldOverJob is the first job held over from the last advance
// (holdTimeoutJobs) still to land, as stepDue's pick.
func (r *runner) heldOverJob() *job {
	s := r.jobs
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, j := range s.unlandedLocked() {
		if j.heldOver && !j.applied && j.settled && !j.due.After(s.now()) {
			return j
		}
	}
	return nil
}

// count is the number of jobs submitted so far.
func (s *jobStore) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.jobs)
}

// counting is pick, adding one to *n for each job it gives.
func counting(pick func() *job, n *int) func() *job {
	return func() *job {
		j := pick()
		if j != nil {
			*n++
		}
		return j
	}
}

// dueBy is nextDueJob(start, end, advance) as stepDue's pick.
func (r *runner) dueBy(start, end time.Time, advance bool) func() *job {
	return func() *job { return r.nextDueJob(start, end, advance) }
}

// stepDue completes the jobs pick gives, one at a time until it gives
// none, their turns merged into out; past r.landCap completions
// (a job that keeps starting jobs), or once out keeps more than
// r.heldCap, it fails naming when they land ("advance", "jobs").
func (r *runner) stepDue(ctx context.Context, pick func() *job, out *Turn, when string) error {
	for i := 0; ; i++ {
		next := pick()
		if next == nil {
			return nil
		}
		if i >= r.landCap {
			return r.landErr(next, when, fmt.Sprintf("more than %d background jobs landed %%s", r.landCap))
		}
		t, err := r.jobStep(ctx, next)
		if err != nil {
			return err
		}
		out.merge(t)
		if out.held > r.heldCap {
			return r.landErr(next, when, "the background jobs landing %s kept more than "+human.Size(int64(r.heldCap))+" of events")
		}
	}
}

// landBetween lands, before a user turn, the completions a real-clock
// session has received and, on a virtual clock, the first job already
// due, its events in the trace and in no fixture turn (flow-format §5.5;
// conformance host-job-lands-before-turn). One lands between two user
// turns: upstream's listener lands one while its rig checks the turn,
// and the next turn takes the session before the listener's next
// landing, so the rest (and the jobs that landing started) land one
// before each later turn or all at an advance (conformance
// jobs-land-one-per-gap).
func (r *runner) landBetween(ctx context.Context) error {
	if err := r.drainJobs(ctx); err != nil {
		return err
	}
	vc, ok := r.clock.(*VirtualClock)
	if !ok || r.gapLanded {
		return nil
	}
	now := vc.Now()
	due := r.dueBy(now, now, false)
	return r.stepDue(ctx, func() *job {
		if r.gapLanded {
			return nil
		}
		j := due()
		r.gapLanded = j != nil
		return j
	}, &Turn{}, "jobs")
}

// nextDueJob is the settled, unapplied job submitted first of those due by
// end, as upstream, which wakes them at once, lands them most of the time
// (conformance jobs-submission-order). Two land only at an advance: an
// answered clarification, due no earlier than start (conformance
// mutate-clarify-at-once), and a job the listener heard as it went
// (conformance terminal-heard-lands-after-view), or after a user turn
// (landHeard).
func (r *runner) nextDueJob(start, end time.Time, advance bool) *job {
	r.jobs.mu.Lock()
	defer r.jobs.mu.Unlock()
	for _, j := range r.jobs.unlandedLocked() {
		if j.applied || !j.settled || j.info.Status == JobAwaiting || (j.answer != nil || j.heard) && !advance || j.waitOther {
			continue
		}
		due := j.due
		if j.answer != nil && due.Before(start) {
			due = start
		}
		if !due.After(end) {
			return j
		}
	}
	return nil
}

func (r *runner) now() time.Time { return r.clock.Now() }

func (t *Turn) merge(x *Turn) {
	if x == nil {
		return
	}
	if !t.counted {
		t.Events = append(t.Events, x.Events...)
	}
	t.held += heldSize(x.Events, maxLandHeld)
	t.Number = x.Number
	if x.Err != nil && t.Err == nil {
		t.Err = x.Err
	}
}
