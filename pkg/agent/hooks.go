package agent

import (
	"cmp"
	"context"
	"fmt"
	"time"
)

// Hooks is Dispatch's waterfall interception seam (pkg/plugin provides it;
// attach it with Registry.SetHooks). PreDispatch runs before
// agent.call.start, so the start event records the request as the plugin
// receives it, and may rewrite the alias, prompt and with: block, or veto.
// PostReturn runs after validation and may veto. A veto is an AskError of
// kind hook_vetoed; outcome events go through emit, into the call's sink.
type Hooks interface {
	PreDispatch(ctx context.Context, req *HookRequest, emit HookEmit) (*HookVeto, error)
	PostReturn(ctx context.Context, req *HookRequest, submission any, meta map[string]any, emit HookEmit) (*HookVeto, error)
}

// HookEmit reports one hook outcome event (kind hook.*, JSON payload).
type HookEmit func(kind string, payload any) error

// HookRequest is the part of a call hooks see (and, at pre-dispatch, may
// rewrite: Alias, Prompt, With).
type HookRequest struct {
	Alias     string
	Verb      string
	Prompt    string
	With      map[string]any
	SchemaID  string // with.schema path, "" when none
	Turn      int64
	StatePath string
}

// HookVeto says which hook refused a call and why.
type HookVeto struct {
	Hook   string
	Point  string
	Reason string
}

func (v *HookVeto) askError() *AskError {
	return Errorf(KindHookVetoed, "hook %s at %s vetoed the call: %s", v.Hook, v.Point, v.Reason)
}

// hooksBox gives every Hooks value, nil included, the one type an
// atomic.Value needs.
type hooksBox struct{ h Hooks }

// SetHooks attaches h to every later Dispatch of the registry (nil
// detaches). Safe to call concurrently with Dispatch.
func (r *Registry) SetHooks(h Hooks) { r.hooks.Store(hooksBox{h}) }

func (r *Registry) currentHooks() Hooks {
	b, _ := r.hooks.Load().(hooksBox)
	return b.h
}

func (r *Registry) hookEmit(c *Call) HookEmit {
	sink := cmp.Or(c.Sink, r.sink)
	return func(kind string, payload any) error {
		if sink == nil {
			return nil
		}
		if err := sink.Emit(Event{Kind: kind, TS: time.Now().UTC(), Turn: c.Turn, StatePath: c.StatePath, Payload: payload}); err != nil {
			return fmt.Errorf("agent: %s: trace sink (%s): %w", c.Alias, kind, err)
		}
		return nil
	}
}

// schemaID is the call's schema path: with.schema, else the given
// compiled schema's ("" when none).
func schemaID(c *Call) string {
	if c.SchemaPath == "" && c.Schema != nil {
		return c.Schema.Path
	}
	return c.SchemaPath
}

// runPreDispatch applies the pre-dispatch hooks to c (rewriting Alias,
// Prompt, With). A veto is a hook_vetoed *AskError.
func (r *Registry) runPreDispatch(ctx context.Context, c *Call) error {
	h := r.currentHooks()
	if h == nil {
		return nil
	}
	req := &HookRequest{Alias: c.Alias, Verb: c.Verb, Prompt: c.Prompt, With: copyMap(c.With), SchemaID: schemaID(c),
		Turn: c.Turn, StatePath: c.StatePath}
	veto, err := h.PreDispatch(ctx, req, r.hookEmit(c))
	if err != nil {
		return err
	}
	if veto != nil {
		return r.redactError(veto.askError())
	}
	c.Alias, c.Prompt, c.With = req.Alias, req.Prompt, req.With
	return nil
}

// runPostReturn runs the post-return hooks on a validated submission.
func (r *Registry) runPostReturn(ctx context.Context, c *Call, alias string, value any, meta map[string]any) *AskError {
	h := r.currentHooks()
	if h == nil {
		return nil
	}
	req := &HookRequest{Alias: alias, Verb: c.Verb, Prompt: c.Prompt, With: c.With, SchemaID: schemaID(c),
		Turn: c.Turn, StatePath: c.StatePath}
	veto, err := h.PostReturn(ctx, req, value, meta, r.hookEmit(c))
	if err != nil {
		return &AskError{Kind: KindTransportError, Detail: err.Error(), Underlying: err}
	}
	if veto != nil {
		return veto.askError()
	}
	return nil
}
