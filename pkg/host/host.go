package host

import (
	"context"
	"time"
)

// Call is one host call as the engine dispatches it.
type Call struct {
	// Handler is the invoked name as written (after host_bindings and
	// iface rewriting), e.g. "host.inbox.add" or "host.git_worktree.create".
	Handler string
	// Op is the suffix dropped by a longest-prefix match ("create" for
	// host.git_worktree.create served by host.git_worktree); "" on an exact
	// match. Registry.Lookup also writes it into Args["op"] when the caller
	// supplied none (story-runtime.md §2.2).
	Op string
	// Args is the rendered with: block (plus "call" = the effect id).
	Args map[string]any
	// Env is what the run knows about where the call happens.
	Env Env
}

// Env is the run context a handler may read. Every field may be zero.
type Env struct {
	SessionID string
	Turn      int64
	State     string         // dispatch state path
	World     map[string]any // read-only snapshot of the world
	StoryDir  string         // absolute directory of the story's app.yaml
	WorkDir   string         // the run's working directory (file-writing handlers stay inside it)
	// Now is the run's clock (virtual in kitsoki test); nil = time.Now.
	Now func() time.Time
	// Services are run-level stores handlers may use (the inbox, the job
	// store); nil when the run has none.
	Services *Services
}

// Services are run-level stores shared by the handlers of one run.
type Services struct {
	Inbox Inbox
	Jobs  Jobs
}

// Inbox receives host.inbox.add notifications.
type Inbox interface {
	Add(ctx context.Context, n Notification) (id string, err error)
}

// Notification is one inbox entry.
type Notification struct {
	Title  string `json:"title"`
	Body   string `json:"body"`
	Kind   string `json:"kind"`
	Thread string `json:"thread,omitempty"`
	State  string `json:"state,omitempty"`
}

// Jobs answers host.jobs.* calls against the run's background job store.
type Jobs interface {
	AnswerClarification(ctx context.Context, jobID string, answer any) error
}

// Result is a handler's domain answer (story-runtime.md §2.3): Data and/or
// a domain Error. A domain error still binds Data; an infrastructure
// failure is the Go error Handler.Call returns instead.
type Result struct {
	Data  map[string]any
	Error string
	// Delay is how long the call takes in the run's (possibly virtual)
	// time: a stub's delay:, or zero for a handler that already took real
	// time. Background jobs complete when the clock passes it.
	Delay time.Duration
	// Clarification, when set, asks the user a question before the call
	// can finish (a background job then waits in needs_attention).
	Clarification *Clarification
}

// Clarification is a mid-flight question from a (background) host call.
type Clarification struct {
	Question string         `json:"question"`
	Data     map[string]any `json:"data,omitempty"`
	// DropAnswer keeps the answer out of the job's result: a flow
	// stub's request_clarification only waits for it, as upstream's
	// (otherwise the result carries it as "answer").
	DropAnswer bool `json:"-"`
}

// Handler serves host calls.
type Handler interface {
	Call(ctx context.Context, c *Call) (Result, error)
}

// Preflighter is a built-in that starts a process and can tell, without
// starting it, the answer a call ends with first (a with: it refuses, a
// program that is not there): nil and nil when the process would start.
// A background job it refuses has ended by the end of the turn that
// submitted it, as upstream's has (conformance job-refused-heard).
type Preflighter interface {
	Preflight(c *Call) (*Result, error)
}

// HandlerFunc adapts a function to Handler.
type HandlerFunc func(ctx context.Context, c *Call) (Result, error)

// Call calls f.
func (f HandlerFunc) Call(ctx context.Context, c *Call) (Result, error) { return f(ctx, c) }
