package mcpserve

import (
	"context"
	"errors"
	"sync"
)

// errSessionEnded cancels the calls of an HTTP session that ended: its
// client closed it (DELETE) or it was ended for idleness (sessions.go).
var errSessionEnded = errors.New("the client's MCP session ended (closed by the client, or idle and ended for a new one)")

// sessionCalls cancels the tool calls of an HTTP session when the session
// ends. The SDK does not: a client that walked away leaves its calls
// running until upstream answers (up to the call timeout), each holding a
// call slot, a plugin process or tokens, for no one to read the answer.
type sessionCalls struct {
	mu sync.Mutex
	m  map[string]*sessionCtx // by session id, while calls of it run
}

type sessionCtx struct {
	ctx    context.Context
	cancel context.CancelCauseFunc
	n      int // calls under way
}

// enter counts a call of session id under way; its context is cancelled
// (errSessionEnded) when the session ends. Call leave when the call ends.
func (sc *sessionCalls) enter(id string) (ctx context.Context, leave func()) {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	if sc.m == nil {
		sc.m = map[string]*sessionCtx{}
	}
	e := sc.m[id]
	if e == nil {
		e = &sessionCtx{}
		e.ctx, e.cancel = context.WithCancelCause(context.Background())
		sc.m[id] = e
	}
	e.n++
	return e.ctx, func() {
		sc.mu.Lock()
		defer sc.mu.Unlock()
		if e.n--; e.n == 0 {
			e.cancel(nil)
			if sc.m[id] == e {
				delete(sc.m, id)
			}
		}
	}
}

// end cancels the calls of session id under way.
func (sc *sessionCalls) end(id string) {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	if e := sc.m[id]; e != nil {
		e.cancel(errSessionEnded)
		delete(sc.m, id)
	}
}
