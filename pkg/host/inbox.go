package host

import (
	"cmp"
	"context"
	"fmt"
	"strings"
)

// inboxHandler serves host.inbox.add through Env.Services.Inbox.
type inboxHandler struct{}

func (inboxHandler) Call(ctx context.Context, c *Call) (Result, error) {
	const name = "host.inbox.add"
	title, body := strArg(c.Args, "title"), strArg(c.Args, "body")
	if strings.TrimSpace(title) == "" {
		return domainErr("%s: title argument is required", name), nil
	}
	if strings.TrimSpace(body) == "" {
		return domainErr("%s: body argument is required", name), nil
	}
	kind := cmp.Or(strArg(c.Args, "kind"), "info")
	n := Notification{Title: title, Body: body, Kind: kind, Thread: strArg(c.Args, "thread"), State: cmp.Or(strArg(c.Args, "state"), c.Env.State)}
	if c.Env.Services == nil || c.Env.Services.Inbox == nil {
		return Result{Data: map[string]any{"ok": true, "id": "", "persisted": false,
			"note": "no inbox adapter installed; notification dropped"}}, nil
	}
	id, err := c.Env.Services.Inbox.Add(ctx, n)
	if err != nil {
		return Result{}, fmt.Errorf("%s: %v", name, err)
	}
	return Result{Data: map[string]any{"ok": true, "id": id, "persisted": true}}, nil
}

// transportHandler serves host.transport.post. kitsoki has no transport
// registry (chat/TUI transports are not part of a headless run), so every
// call is the domain error upstream returns without one, before it reads
// any argument (a call with none gets it too).
type transportHandler struct{}

func (transportHandler) Call(ctx context.Context, c *Call) (Result, error) {
	return domainErr("host.transport.post: no transport registry installed in context"), nil
}

// jobsAnswerHandler serves host.jobs.answer_clarification through
// Env.Services.Jobs.
type jobsAnswerHandler struct{}

func (jobsAnswerHandler) Call(ctx context.Context, c *Call) (Result, error) {
	const name = "host.jobs.answer_clarification"
	// as upstream: the id is a non-empty string as given (a number, a
	// bool or whitespace is not read as one), the answer any value,
	// null too, but present (conformance mutate-answer-args)
	id, _ := c.Args["job_id"].(string)
	if id == "" {
		return domainErr("%s: job_id argument is required", name), nil
	}
	answer, ok := c.Args["answer"]
	if !ok {
		return domainErr("%s: answer argument is required", name), nil
	}
	if c.Env.Services == nil || c.Env.Services.Jobs == nil {
		return domainErr("%s: no job store installed in this run", name), nil
	}
	if err := c.Env.Services.Jobs.AnswerClarification(ctx, id, answer); err != nil {
		// the store's error under the handler's name, as upstream
		// (conformance host-bind-answer-errors)
		return domainErr("%s: %v", name, err), nil
	}
	return Result{Data: map[string]any{"answered": true, "job_id": id}}, nil
}
