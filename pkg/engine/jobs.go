package engine

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"kitsoki/internal/jsonvalue"
	"kitsoki/internal/sleep"
	"kitsoki/pkg/host"
	"kitsoki/pkg/story"
)

// job is one background job. Fields past info are guarded by the store's
// mutex while the job's goroutine runs.
type job struct {
	info JobInfo // info.State: the encoded origin state
	e    *Effect
	// virtual clock: when the job next changes (asks or completes)
	due     time.Time
	settled bool // a result is in (real mode: the goroutine ended)
	ans     hostAnswer
	err     error
	asked   bool // the clarification question was posted
	answer  any
	// dropAnswer: the answer is not added to the result (the handler's
	// clarification said so: a flow stub)
	dropAnswer bool
	applied    bool // the completion turn ran
	// heard: the job had finished when the listener went
	// (restedTerminal), so its completion still lands, at the next
	// advance (jobs_heard.go)
	heard bool
	// received: heard finished while the session was in its origin
	// state: its on_complete runs at that advance wherever the session
	// rests (conformance terminal-heard-lands-after-view)
	received bool
	// process: on a virtual clock, a real built-in that starts a
	// process (startsProcess) runs it in real time
	process bool
	// waitOther: started by the landing of a timeout in the advance under
	// way, the job lands in it only once another job has (advance);
	// heldOver: such a job the advance ended without, which the next
	// advance lands first, before its timeout
	waitOther, heldOver bool
}

// jobStore holds a session's background jobs. It implements host.Jobs.
type jobStore struct {
	mu   sync.Mutex
	jobs []*job
	// landed: jobs[:landed] have all had their completion turn, so the
	// scans for the next one to land start past them (unlanded)
	landed int
	byID   map[string]*job
	ready  []*job // real clock: settled, waiting for the session
	// virtual: jobs complete only through Advance (never from ready)
	virtual bool
	// now reads the session's clock (storeStatusLocked)
	now    func() time.Time
	notify chan struct{}
	wg     sync.WaitGroup
}

// signal wakes Wait.
func (s *jobStore) signalLocked() {
	close(s.notify)
	s.notify = make(chan struct{})
}

func (s *jobStore) list() []JobInfo {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]JobInfo, len(s.jobs))
	for i, j := range s.jobs {
		out[i] = j.info
		out[i].Status, out[i].Error = s.storeStatusLocked(j)
		out[i].Result = jsonvalue.Normalize(j.info.Result).(map[string]any)
	}
	return out
}

// unlandedLocked is the jobs from the first whose completion turn is
// still to come, in submission order; it is called with the store locked.
func (s *jobStore) unlandedLocked() []*job {
	for s.landed < len(s.jobs) && s.jobs[s.landed].applied {
		s.landed++
	}
	return s.jobs[s.landed:]
}

// pending counts jobs whose completion turn is still to come and that are
// not waiting for an answer, with the channel the next change closes, read
// together so that no change is missed. A completion already in ready
// arrived after the caller's drain, its signal spent on a channel the
// caller no longer holds: the channel returned is then closed, so the
// caller drains again instead of waiting for a change that never comes.
func (s *jobStore) pending() (int, <-chan struct{}) {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, j := range s.unlandedLocked() {
		if !j.applied && j.info.Status != JobAwaiting {
			n++
		}
	}
	if n > 0 && len(s.ready) > 0 {
		now := make(chan struct{})
		close(now)
		return n, now
	}
	return n, s.notify
}

// AnswerClarification implements host.Jobs (host.jobs.answer_clarification).
func (s *jobStore) AnswerClarification(ctx context.Context, jobID string, answer any) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	j := s.byID[jobID]
	if j == nil || j.info.Unstored {
		// upstream's text: its job store is an SQL table
		// (docs/compat/engine.md "Background jobs")
		return errors.New("jobs.AnswerClarification: sql: no rows in result set")
	}
	if j.info.Status != JobAwaiting {
		status, _ := s.storeStatusLocked(j)
		return fmt.Errorf("jobs.AnswerClarification: job %s is not awaiting_input (status=%s)", jobID, status)
	}
	j.info.Status, j.answer, j.info.Question = JobRunning, answer, ""
	j.dropAnswer = j.ans.clar != nil && j.ans.clar.DropAnswer
	j.ans.clar = nil
	if j.settled && !s.virtual {
		s.ready = append(s.ready, j)
		s.signalLocked()
	}
	return nil
}

// jobID is a 26-character ULID-shaped id, deterministic per session: 48
// bits of clock milliseconds, then the job's sequence number.
func jobID(t time.Time, seq int) string {
	const alphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
	ms := uint64(t.UnixMilli())
	var b [26]byte
	for i := 9; i >= 0; i-- {
		b[i] = alphabet[ms&31]
		ms >>= 5
	}
	n := uint64(seq)
	for i := 25; i >= 10; i-- {
		b[i] = alphabet[n&31]
		n >>= 5
	}
	return string(b[:])
}

// submit starts a background job for a queued invoke (story-runtime §5):
// the job id bound, scheduler.submitted written, a notification posted.
// With a virtual clock the handler runs now, its answer applied once the
// clock passes its delay; with the wall clock it runs on a goroutine.
func (r *runner) submit(e *Effect, args map[string]any, rc *RenderedCall, promptErr error) error {
	s := r.jobs
	s.mu.Lock()
	seq := len(s.jobs) + 1
	id := jobID(r.now(), seq)
	origin := r.statePath()
	if r.t.dispatching {
		// the empty path too: a job a batch submitted after an emit hop
		// rendered ".." on a top-level state has no origin the session
		// can be back at, and its on_complete never runs, as upstream
		// (conformance job-origin-empty-path)
		origin = r.t.dispatchState
	}
	if r.t.chainOrigin != "" {
		// a job the on_enter of a state an on_complete chain's hop entered
		// starts: upstream dispatches the chain's calls at the completion's
		// origin, so the job is stale once it lands there (conformance
		// jobs-due-neighbours chainhop)
		origin = r.t.chainOrigin
	}
	j := &job{e: e, info: JobInfo{ID: id, Namespace: e.Invoke, Status: JobRunning, State: origin, Submitted: r.now(), Seq: seq,
		Unstored: jsonvalue.HasNonFinite(args)}}
	s.jobs = append(s.jobs, j)
	s.byID[id] = j
	s.mu.Unlock()

	key, found := story.WorldLastJobID, false // the first job_id bind in key order
	for _, b := range e.Bind {
		if b.Path == "job_id" && (!found || b.Key < key) {
			key, found = b.Key, true
		}
	}
	if len(e.Bind) == 0 {
		// a submission that binds nothing keeps the render from before
		// it: an on_error that names no state later in the batch shows
		// it, as if nothing had been applied (conformance
		// submit-then-dot-stay)
		r.keepFirst()
		r.t.submitOnly = r.t.submitOnly || !r.t.rerender
	} else {
		r.t.submitOnly = false
	}
	setPath(r.world, key, id)
	// conformance storymut-submit-keeps-say
	r.t.rerender, r.t.applied = true, true
	r.t.dropSay = r.t.dropSay || len(e.Bind) > 0
	if err := r.emitSet(key, id); err != nil {
		return err
	}
	if key != story.WorldLastJobID {
		r.world[story.WorldLastJobID] = id
		if err := r.emitSet(story.WorldLastJobID, id); err != nil {
			return err
		}
	}
	if err := r.emit(KindJobSubmitted, map[string]any{"job_id": id, "namespace": e.Invoke, "state": j.info.State}); err != nil {
		return err
	}
	r.inbox.post(InboxItem{Title: "Job submitted: " + e.Invoke, Severity: "info", JobID: id, State: j.info.State})
	r.note(Note{Kind: "job", State: j.info.State, Text: "background " + callText(e, e.Agent) + " submitted as job " + id})

	call := guarded(e.Invoke, r.prepareJob(e, args, rc, promptErr))
	if j.info.Unstored {
		call = noClarification(call)
	}
	if _, virtual := r.clock.(*VirtualClock); virtual {
		if r.startsProcess(e.Invoke) {
			// in real time, as upstream: it lands before the first user
			// turn after it ended, or at the next advance, which waits
			// for it (parkProcesses)
			s.mu.Lock()
			j.process, j.due = true, r.now()
			if ans, err, refused := r.preflight(e, args); refused {
				// ended before its process started: by the end of this
				// turn (conformance job-refused-heard)
				j.ans, j.err, j.settled = ans, err, true
				s.mu.Unlock()
				return nil
			}
			s.mu.Unlock()
			s.wg.Add(1)
			go func() {
				defer s.wg.Done()
				ans, err := call(r.jobCtx)
				s.mu.Lock()
				j.ans, j.err, j.settled = ans, err, true
				s.signalLocked()
				s.mu.Unlock()
			}()
			return nil
		}
		ans, err := call(r.jobCtx)
		s.mu.Lock()
		j.ans, j.err, j.settled = ans, err, true
		j.due = r.now().Add(ans.delay)
		if ans.clar != nil && ans.delay <= 0 { // conformance mutate-clarify-at-once
			r.askLocked(j)
			return nil
		}
		s.mu.Unlock()
		return nil
	}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		ans, err := call(r.jobCtx)
		if err == nil && ans.delay > 0 {
			err = sleep.For(r.jobCtx, ans.delay)
		}
		s.mu.Lock()
		j.ans, j.err, j.settled = ans, err, true
		s.ready = append(s.ready, j)
		s.signalLocked()
		s.mu.Unlock()
	}()
	return nil
}

// prepareJob captures everything the job's handler needs, so that it runs
// without touching the session.
func (r *runner) prepareJob(e *Effect, args map[string]any, rc *RenderedCall, promptErr error) func(ctx context.Context) (hostAnswer, error) {
	env := r.hostEnv()
	args = jsonvalue.Normalize(args).(map[string]any)
	if replays(r.so.HostReplay, e.Invoke) {
		// a replay reads the session: answer it now
		ans, _, err := r.replayHost(r.jobCtx, e, args)
		if !errors.Is(err, ErrReplayMiss) {
			return func(context.Context) (hostAnswer, error) { return ans, err }
		}
		// the real handler answers a miss (and may be recorded)
		c, hr, live := r.replayCall(e, args), r.so.HostReplay, r.prepareLive(e, args, rc, promptErr, env)
		return func(ctx context.Context) (hostAnswer, error) {
			ans, err := live(ctx)
			recorded(hr, c, ans, err)
			return ans, err
		}
	}
	return r.prepareLive(e, args, rc, promptErr, env)
}

// prepareLive is prepareJob past the host cassette: the registry's
// handler or the agent layer.
func (r *runner) prepareLive(e *Effect, args map[string]any, rc *RenderedCall, promptErr error, env host.Env) func(ctx context.Context) (hostAnswer, error) {
	if h, _, op, ok := r.hosts.Lookup(e.Invoke); ok && (op == "" || !isAgentHandler(e.Invoke)) {
		return func(ctx context.Context) (hostAnswer, error) { return callHandler(ctx, h, e.Invoke, op, args, env) }
	}
	if isAgentHandler(e.Invoke) {
		if err := unregistered(r.so.Agents, e.Invoke); err != nil {
			return failing(err)
		}
		if r.so.Agents == nil || rc == nil {
			return failing(errors.New("no agent layer configured for this run"))
		}
		if !r.so.NoAgentHandlers {
			// refused before any agent starts, as in the foreground
			// (conformance job-agent-args-refused)
			if msg := agentArgsError(rc.Verb, rc.With); msg != "" {
				return func(context.Context) (hostAnswer, error) { return hostAnswer{err: msg}, nil }
			}
		}
		if promptErr != nil {
			// as in the foreground: a failed answer
			err := promptFailed(e.Invoke, promptErr)
			return func(context.Context) (hostAnswer, error) { return agentDomain(hostAnswer{}, err) }
		}
		alias, err := r.agentAlias(e)
		if err != nil {
			return failing(err)
		}
		call := r.agentCall(e, alias, args, rc)
		agents := r.so.Agents
		verb := call.Verb
		return func(ctx context.Context) (hostAnswer, error) {
			ans, err := agents.CallAgent(ctx, call)
			if err != nil {
				return agentDomain(hostAnswer{}, err)
			}
			return hostAnswer{data: agentResult(verb, ans)}, nil
		}
	}
	return failing(fmt.Errorf("host: no handler registered for %q", e.Invoke))
}

// preflight is the answer a process job ends with before its process
// starts (host.Preflighter); refused is false when the process would
// start, or its built-in cannot tell.
func (r *runner) preflight(e *Effect, args map[string]any) (ans hostAnswer, err error, refused bool) {
	h, _, op, ok := r.hosts.Lookup(e.Invoke)
	p, can := h.(host.Preflighter)
	if !ok || !can {
		return hostAnswer{}, nil, false
	}
	res, err := p.Preflight(&host.Call{Handler: e.Invoke, Op: op, Args: jsonvalue.Normalize(args).(map[string]any), Env: r.hostEnv()})
	if res == nil {
		return hostAnswer{}, err, err != nil
	}
	return hostAnswer{data: res.Data, err: res.Error}, nil, true
}

// startsProcess reports whether name is served by a real built-in that
// starts a process (host.run, host.local, git, ...: not host.SandboxSafe).
// On a virtual clock upstream's job still runs it in real time while the
// flow's turns go on: its completion lands between two turns if it has
// ended by then, else at the next positive advance_clock, whose park
// barrier waits for it; a stub's answer is in before the next turn
// (conformance job-process-real-time, host-job-lands-before-turn).
func (r *runner) startsProcess(name string) bool {
	if replays(r.so.HostReplay, name) {
		return false
	}
	_, served, _, ok := r.hosts.Lookup(name)
	if !ok {
		return false
	}
	info, _ := r.hosts.Info(served)
	return info.Source == host.SourceBuiltin && !host.SandboxSafe(served)
}

// noClarification is an unstored job's call (JobInfo.Unstored): a
// clarification it asks for fails as upstream's does, the store having no
// row to mark awaiting_input, after the call's delay.
func noClarification(call func(context.Context) (hostAnswer, error)) func(context.Context) (hostAnswer, error) {
	return func(ctx context.Context) (hostAnswer, error) {
		ans, err := call(ctx)
		if err == nil && ans.clar != nil {
			ans = hostAnswer{err: "host.RequestClarification: jobs.RequestClarification: sql: no rows in result set", delay: ans.delay}
		}
		return ans, err
	}
}

// failing is a job's call that fails with err.
func failing(err error) func(context.Context) (hostAnswer, error) {
	return func(context.Context) (hostAnswer, error) { return hostAnswer{}, err }
}

// drainJobs applies the completions a real-clock session has received,
// within the bound of what lands with no input between (inputChain).
func (r *runner) drainJobs(ctx context.Context) error {
	for {
		s := r.jobs
		s.mu.Lock()
		if len(s.ready) == 0 {
			s.mu.Unlock()
			return nil
		}
		j := s.ready[0]
		if err := r.chain.admitJob(r, j); err != nil {
			s.mu.Unlock()
			return err
		}
		s.ready = s.ready[1:]
		s.mu.Unlock()
		t, _ := r.jobStep(ctx, j)
		if err := r.chain.keep(r, t, func(what string) error { return r.landErr(j, "input", what) }); err != nil {
			return err
		}
	}
}

// jobStep moves a settled job on: a clarification question is posted
// (awaiting_input), otherwise the job ends with its completion turn.
func (r *runner) jobStep(ctx context.Context, j *job) (*Turn, error) {
	s := r.jobs
	s.mu.Lock()
	if j.applied {
		s.mu.Unlock()
		return nil, nil
	}
	if j.ans.clar != nil && !j.asked {
		r.askLocked(j)
		return nil, nil
	}
	if j.info.Status == JobAwaiting {
		s.mu.Unlock()
		return nil, nil
	}
	j.applied = true
	r.bugs.note(j.err)
	status, errMsg := endStatus(j)
	data := j.ans.data // nil: no last_job_result (conformance host-job-no-data)
	if j.answer != nil && !j.dropAnswer {
		data = shallowWith(data, "answer", j.answer)
	}
	var result map[string]any
	if data != nil {
		result = jsonvalue.Normalize(data).(map[string]any)
	}
	j.info.Status, j.info.Error, j.info.Result, j.info.Ended = status, errMsg, result, r.now()
	s.mu.Unlock()
	return r.completionTurn(ctx, j, status, errMsg, data)
}

// endStatus is how a settled job ends: cancelled or failed by its
// handler's error, failed by its answer's, otherwise done.
func endStatus(j *job) (status, errMsg string) {
	switch {
	case j.err != nil && errors.Is(j.err, context.Canceled):
		return JobCancelled, j.err.Error()
	case j.err != nil:
		return JobFailed, j.err.Error()
	case j.ans.err != "":
		return JobFailed, j.ans.err
	}
	return JobDone, ""
}

// storeStatusLocked is j's status as upstream's job store holds it: the
// row ends when the handler returns (a stub answer due by now, a process
// that has exited), before the completion turn runs, so a job a turn
// submits with no delay has ended by the end of that turn, for
// expect_jobs and for an answer to it (conformance job-ended-before-landing).
// It is called with the store locked.
func (s *jobStore) storeStatusLocked(j *job) (status, errMsg string) {
	if j.info.Status == JobRunning && !j.applied && j.settled && !j.asked && j.ans.clar == nil && !j.due.After(s.now()) {
		return endStatus(j)
	}
	return j.info.Status, j.info.Error
}

// askLocked posts j's clarification question (awaiting_input, an
// action_required notification); it is called with the store locked and
// unlocks it.
func (r *runner) askLocked(j *job) {
	j.asked = true
	j.info.Status, j.info.Question = JobAwaiting, j.ans.clar.Question
	r.jobs.mu.Unlock()
	if r.listenerGone {
		// the job store marks it awaiting; the listener that would post
		// the question is gone (conformance storymut-terminal-ask-no-notice)
		r.note(Note{Kind: "job", State: j.info.State, Text: "job " + j.info.ID + " asks after the session was terminal: no notification"})
		return
	}
	r.inbox.post(InboxItem{Title: "Job needs input: " + j.info.Namespace, Body: j.ans.clar.Question, Severity: "action_required", JobID: j.info.ID, State: j.info.State})
	r.note(Note{Kind: "job", State: j.info.State, Text: "job " + j.info.ID + " asks: " + j.ans.clar.Question})
}
