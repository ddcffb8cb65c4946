package plugin

import (
	"context"
	"maps"

	"kitsoki/pkg/agent"
)

// AgentHooks adapts the chain to agent.Hooks: attach it with
// (*agent.Registry).SetHooks(chain.AgentHooks()).
func (c *Chain) AgentHooks() agent.Hooks { return agentHooks{c} }

type agentHooks struct{ c *Chain }

func (h agentHooks) PreDispatch(ctx context.Context, req *agent.HookRequest, emit agent.HookEmit) (*agent.HookVeto, error) {
	if !h.c.Has(pointPreDispatch) {
		return nil, nil
	}
	with := map[string]any{}
	maps.Copy(with, req.With)
	p := Payload{"alias": req.Alias, "verb": req.Verb, "prompt": req.Prompt, "with": with, "schema_id": req.SchemaID,
		"turn": req.Turn, "state_path": req.StatePath}
	out, veto, err := h.run(ctx, pointPreDispatch, p, emit)
	if err != nil || veto != nil {
		return veto, err
	}
	if s, ok := out["alias"].(string); ok {
		req.Alias = s
	}
	if s, ok := out["prompt"].(string); ok {
		req.Prompt = s
	}
	if w, ok := out["with"].(map[string]any); ok {
		req.With = w
	} else if out["with"] == nil {
		req.With = nil
	}
	return nil, nil
}

func (h agentHooks) PostReturn(ctx context.Context, req *agent.HookRequest, submission any, meta map[string]any, emit agent.HookEmit) (*agent.HookVeto, error) {
	if !h.c.Has(pointPostReturn) {
		return nil, nil
	}
	p := Payload{"alias": req.Alias, "verb": req.Verb, "submission": submission, "meta": meta,
		"turn": req.Turn, "state_path": req.StatePath}
	_, veto, err := h.run(ctx, pointPostReturn, p, emit)
	return veto, err
}

// run runs the chain at point; a halt is the veto the agent layer reports.
func (h agentHooks) run(ctx context.Context, point Point, p Payload, emit agent.HookEmit) (Payload, *agent.HookVeto, error) {
	out, halt, err := h.c.Run(ctx, point, p, emitFunc(emit))
	if err != nil {
		return nil, nil, err
	}
	if halt != nil {
		return out, &agent.HookVeto{Hook: halt.Plugin, Point: string(halt.Point), Reason: halt.Reason}, nil
	}
	return out, nil, nil
}

// HostPreCall runs host/pre-call for a host effect (handler, args) and
// returns the possibly rewritten args. A halt is returned as a *Halt
// error, so the effect takes its on_error path like any failed host call.
// emit receives the hook.* events (pkg/engine's emit has this shape).
func (c *Chain) HostPreCall(ctx context.Context, handler string, args map[string]any, emit func(kind string, payload any) error) (map[string]any, error) {
	if !c.Has(pointHostPreCall) {
		return args, nil
	}
	out, halt, err := c.Run(ctx, pointHostPreCall, Payload{"handler": handler, "args": args}, emitFunc(emit))
	if err != nil {
		return nil, err
	}
	if halt != nil {
		return nil, halt
	}
	a, _ := out["args"].(map[string]any)
	if a == nil {
		a = map[string]any{}
	}
	return a, nil
}

// RunStart runs the observational run/start point (payload e.g. story,
// app_id, session_id).
func (c *Chain) RunStart(ctx context.Context, payload map[string]any, emit func(kind string, payload any) error) error {
	return c.observe(ctx, pointRunStart, payload, emit)
}

// RunEnd runs the observational run/end point (payload e.g. outcome,
// state, error).
func (c *Chain) RunEnd(ctx context.Context, payload map[string]any, emit func(kind string, payload any) error) error {
	return c.observe(ctx, pointRunEnd, payload, emit)
}

func (c *Chain) observe(ctx context.Context, point Point, payload Payload, emit func(kind string, payload any) error) error {
	if !c.Has(point) {
		return nil
	}
	_, _, err := c.Run(ctx, point, payload, emitFunc(emit))
	return err
}

func emitFunc(emit func(kind string, payload any) error) func(Event) error {
	return func(ev Event) error {
		if emit == nil {
			return nil
		}
		return emit(ev.Kind, ev.Payload)
	}
}
