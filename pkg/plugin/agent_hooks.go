package plugin

import (
	"context"

	"kitsoki/pkg/agent"
)

// AgentHooks adapts the chain to agent.Hooks: attach it with
// (*agent.Registry).SetHooks(chain.AgentHooks()).
func (c *Chain) AgentHooks() agent.Hooks { return agentHooks{c} }

type agentHooks struct{ c *Chain }

func emitTo(emit agent.HookEmit) func(Event) error {
	return func(ev Event) error { return emit(ev.Kind, ev.Payload) }
}

func (h agentHooks) PreDispatch(ctx context.Context, req *agent.HookRequest, emit agent.HookEmit) (*agent.HookVeto, error) {
	if !h.c.Has(PointPreDispatch) {
		return nil, nil
	}
	with := map[string]any{}
	for k, v := range req.With {
		with[k] = v
	}
	p := Payload{"alias": req.Alias, "verb": req.Verb, "prompt": req.Prompt, "with": with, "schema_id": req.SchemaID,
		"turn": req.Turn, "state_path": req.StatePath}
	out, halt, err := h.c.Run(ctx, PointPreDispatch, p, emitTo(emit))
	if err != nil {
		return nil, err
	}
	if halt != nil {
		return &agent.HookVeto{Hook: halt.Plugin, Point: string(halt.Point), Reason: halt.Reason}, nil
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
	if !h.c.Has(PointPostReturn) {
		return nil, nil
	}
	p := Payload{"alias": req.Alias, "verb": req.Verb, "submission": submission, "meta": meta,
		"turn": req.Turn, "state_path": req.StatePath}
	_, halt, err := h.c.Run(ctx, PointPostReturn, p, emitTo(emit))
	if err != nil {
		return nil, err
	}
	if halt != nil {
		return &agent.HookVeto{Hook: halt.Plugin, Point: string(halt.Point), Reason: halt.Reason}, nil
	}
	return nil, nil
}

// HostPreCall runs host/pre-call for a host effect (handler, args); it
// returns the possibly rewritten args, or the halt that sends the effect
// down its on_error path. For pkg/engine.
func (c *Chain) HostPreCall(ctx context.Context, handler string, args map[string]any, emit func(kind string, payload any) error) (map[string]any, *Halt, error) {
	if !c.Has(PointHostPreCall) {
		return args, nil, nil
	}
	out, halt, err := c.Run(ctx, PointHostPreCall, Payload{"handler": handler, "args": args}, func(ev Event) error {
		if emit == nil {
			return nil
		}
		return emit(ev.Kind, ev.Payload)
	})
	if err != nil || halt != nil {
		return nil, halt, err
	}
	a, _ := out["args"].(map[string]any)
	return a, nil, nil
}

// Observe runs an observational point (run/start, run/end) with payload.
func (c *Chain) Observe(ctx context.Context, point Point, payload Payload, emit func(kind string, payload any) error) error {
	if !c.Has(point) {
		return nil
	}
	_, _, err := c.Run(ctx, point, payload, func(ev Event) error {
		if emit == nil {
			return nil
		}
		return emit(ev.Kind, ev.Payload)
	})
	return err
}
