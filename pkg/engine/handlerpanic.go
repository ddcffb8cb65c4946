package engine

import (
	"context"
	"sync"

	"kitsoki/internal/panicked"
)

// handlerPanic is a handler's panic turned into its call's failure: the
// run goes on as for any failing handler (on_error, a failed job), and the
// run reports it (Result.Bugs, Session.Bugs) so that its exit status
// says a failure happened. Its Error is internal/panicked's one line
// without the stack; Stack is written to the trace (harness.returned or
// scheduler.completed "stack"). It is a type of its own so that only a
// handler's panic counts as the run's bug, not a *panicked.Error that a
// lower layer (the agent transport, a hook) returned as a plain failure.
type handlerPanic struct{ caught *panicked.Error }

func (p *handlerPanic) Error() string { return p.caught.Error() }

// bugLog collects the run's handler panics; background jobs add to it from
// their goroutines.
type bugLog struct {
	mu   sync.Mutex
	msgs []string
}

// recovered turns a panic under way into *err, a *handlerPanic naming
// handler; call it deferred. The panic is logged where the failure is
// heard: at once in the foreground (dispatchGuarded), when a job lands
// (jobStep), so that it belongs to the same turn on every run.
func recovered(handler string, err *error) {
	if p := recover(); p != nil {
		*err = &handlerPanic{panicked.New(handler, "the handler", p)}
	}
}

// note logs err when it is a handler's panic.
func (b *bugLog) note(err error) {
	if hp, ok := err.(*handlerPanic); ok {
		b.mu.Lock()
		b.msgs = append(b.msgs, hp.Error())
		b.mu.Unlock()
	}
}

// list is a copy of the messages logged so far.
func (b *bugLog) list() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.msgs...)
}

// panicStack adds err's stack to an event payload when err is a handler's
// panic.
func panicStack(payload map[string]any, err error) map[string]any {
	if hp, ok := err.(*handlerPanic); ok {
		payload["stack"] = string(hp.caught.Stack)
	}
	return payload
}

// dispatchGuarded is dispatch with a panic of the handler (or the agent
// layer) turned into the call's failure.
func (r *runner) dispatchGuarded(ctx context.Context, e *Effect, args map[string]any, rc *RenderedCall, promptErr error) (ans hostAnswer, id string, err error) {
	defer func() { r.bugs.note(err) }()
	defer recovered(e.Invoke, &err)
	return r.dispatch(ctx, e, args, rc, promptErr)
}

// guarded is a background job's call with a panic turned into its
// failure, as dispatchGuarded does in the foreground: the job fails and
// the goroutine running it ends normally.
func guarded(handler string, call func(context.Context) (hostAnswer, error)) func(context.Context) (hostAnswer, error) {
	return func(ctx context.Context) (ans hostAnswer, err error) {
		defer recovered(handler, &err)
		return call(ctx)
	}
}

// Bugs are the handler panics of the session so far, one message each
// (see handlerPanic): the foreground calls' and the landed jobs'.
func (s *Session) Bugs() []string { return s.r.bugs.list() }

// runBugs are the run's handler panics: the logged ones, then those of
// the jobs that ended without landing (the run ended while they ran).
func (r *runner) runBugs() []string {
	bugs := r.bugs.list()
	s := r.jobs
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, j := range s.jobs {
		if hp, ok := j.err.(*handlerPanic); ok && j.settled && !j.applied {
			bugs = append(bugs, hp.Error())
		}
	}
	return bugs
}
