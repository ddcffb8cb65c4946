package agent

import (
	"context"
	"errors"
	"io"
)

// Agent is a compiled-in Go agent served through the builtin.inprocess
// transport (RegisterInProcess). Ask must honour ctx; an answer returned
// after ctx is done is discarded. If the Agent also implements io.Closer,
// Registry.Close closes it.
type Agent interface {
	Ask(ctx context.Context, req *AskRequest) (*AskResponse, error)
}

// AgentFunc adapts a function to Agent.
type AgentFunc func(ctx context.Context, req *AskRequest) (*AskResponse, error)

// Ask calls f(ctx, req).
func (f AgentFunc) Ask(ctx context.Context, req *AskRequest) (*AskResponse, error) {
	return f(ctx, req)
}

// inprocess is the builtin.inprocess transport around a registered Agent.
type inprocess struct {
	alias string
	a     Agent
}

// NewInProcess wraps a Go agent as a Transport: what RegisterInProcess
// uses, and what a RegistryOptions.Builders entry returns to serve a plugin
// type with Go code (see the example).
func NewInProcess(alias string, a Agent) Transport { return &inprocess{alias: alias, a: a} }

func (t *inprocess) Ask(ctx context.Context, req *AskRequest) (*AskResponse, error) {
	if err := ctx.Err(); err != nil {
		return nil, ContextError(t.alias, err)
	}
	resp, err := t.a.Ask(ctx, req)
	if cerr := ctx.Err(); cerr != nil {
		// A late answer (or a late failure) after the deadline is discarded.
		return nil, ContextError(t.alias, cerr)
	}
	if err != nil {
		if _, ok := errors.AsType[*AskError](err); ok {
			return nil, err
		}
		return nil, &AskError{Kind: KindPluginCrash, Detail: "in-process agent " + t.alias + ": " + err.Error(), Underlying: err}
	}
	if resp == nil {
		resp = &AskResponse{}
	}
	return resp, nil
}

func (t *inprocess) Close() error {
	if c, ok := t.a.(io.Closer); ok {
		return c.Close()
	}
	return nil
}

// ContextError is the deadline_exceeded error of alias's call whose context
// ended with err (cancelled, or past its hard deadline).
func ContextError(alias string, err error) *AskError {
	detail := alias + ": hard deadline exceeded; the answer, if any, was discarded"
	if errors.Is(err, context.Canceled) {
		detail = alias + ": call cancelled before the agent answered"
	}
	return &AskError{Kind: KindDeadlineExceeded, Detail: detail, Underlying: err}
}

// unregisteredInProcess stands in for a builtin.inprocess alias that was
// declared in the story but never given an implementation.
type unregisteredInProcess struct{ alias string }

func (u unregisteredInProcess) Ask(context.Context, *AskRequest) (*AskResponse, error) {
	return nil, Errorf(KindTransportError,
		"agent_plugins.%s is declared as plugin: builtin.inprocess but no Go agent is registered for it; call (*agent.Registry).RegisterInProcess(%q, impl) before dispatch, or declare another plugin type",
		u.alias, u.alias)
}

func (u unregisteredInProcess) Close() error { return nil }
