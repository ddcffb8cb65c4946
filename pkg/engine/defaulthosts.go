package engine

import (
	"context"
	"errors"
	"strings"

	"kitsoki/pkg/host"
)

// defaultHosts is the registry a session uses when SessionOptions.Hosts is
// nil: every built-in handler of pkg/host, plus the engine's fallbacks for
// any of host.run, host.jobs.answer_clarification and host.inbox.add that
// it does not serve.
//
// TODO(HOSTS/HARD): host.run is still the engine's copy (its result keeps
// a stderr key): pkg/host's upstream-shaped host.run changes
// pkg/trace/testdata/cmd/example_pr_review.golden, which the trace owner
// regenerates; then drop the override and hostrun.go.
func defaultHosts() *host.Registry {
	reg := host.Builtins(host.Options{})
	PrepareHosts(reg)
	return reg
}

// PrepareHosts readies a run's registry (pkg/host's builtins plus any
// providers) the way kitsoki run uses it: host.run is the engine's copy
// (see the TODO above) and the engine's fallbacks fill what is missing.
func PrepareHosts(reg *host.Registry) {
	reg.Register("host.run", engineHostRun)
	RegisterEngineHosts(reg)
}

var engineHostRun = host.HandlerFunc(func(ctx context.Context, c *host.Call) (host.Result, error) {
	res, err := hostRun(ctx, c.Args)
	if err != nil {
		return host.Result{}, err
	}
	return host.Result{Data: res}, nil
})

// RegisterEngineHosts adds the handlers the engine serves itself to reg
// (host.run, host.jobs.answer_clarification, host.inbox.add), without
// replacing a handler already registered under the same name.
func RegisterEngineHosts(reg *host.Registry) {
	add := func(name string, h host.Handler) {
		if _, served, _, ok := reg.Lookup(name); ok && served == name {
			return
		}
		reg.Register(name, h)
	}
	add("host.run", engineHostRun)
	add("host.jobs.answer_clarification", AnswerClarificationHandler)
	add("host.inbox.add", InboxAddHandler)
}

// AnswerClarificationHandler serves host.jobs.answer_clarification
// {job_id, answer} against the run's job store (story-runtime §5).
var AnswerClarificationHandler = host.HandlerFunc(func(ctx context.Context, c *host.Call) (host.Result, error) {
	id := strings.TrimSpace(toString(c.Args["job_id"]))
	ans, ok := c.Args["answer"]
	if id == "" || !ok || ans == nil {
		return host.Result{Error: "host.jobs.answer_clarification: job_id and answer are required"}, nil
	}
	if c.Env.Services == nil || c.Env.Services.Jobs == nil {
		return host.Result{}, errors.New("host.jobs.answer_clarification: this run has no job store")
	}
	if err := c.Env.Services.Jobs.AnswerClarification(ctx, id, ans); err != nil {
		return host.Result{Error: err.Error()}, nil
	}
	return host.Result{Data: map[string]any{"answered": true, "job_id": id}}, nil
})

// InboxAddHandler serves host.inbox.add {title, body, kind, thread, state}
// into the run's inbox (story-runtime §2.8).
var InboxAddHandler = host.HandlerFunc(func(ctx context.Context, c *host.Call) (host.Result, error) {
	title := strings.TrimSpace(toString(c.Args["title"]))
	body := strings.TrimSpace(toString(c.Args["body"]))
	if title == "" {
		return host.Result{Error: "host.inbox.add: title argument is required"}, nil
	}
	if body == "" {
		return host.Result{Error: "host.inbox.add: body argument is required"}, nil
	}
	if c.Env.Services == nil || c.Env.Services.Inbox == nil {
		return host.Result{Data: map[string]any{"ok": true, "id": "", "persisted": false, "note": "no inbox adapter installed; notification dropped"}}, nil
	}
	id, err := c.Env.Services.Inbox.Add(ctx, host.Notification{Title: title, Body: body, Kind: toString(c.Args["kind"]),
		Thread: toString(c.Args["thread"]), State: toString(c.Args["state"])})
	if err != nil {
		return host.Result{}, err
	}
	return host.Result{Data: map[string]any{"ok": true, "id": id, "persisted": true}}, nil
})
