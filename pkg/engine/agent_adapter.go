package engine

import (
	"context"

	"kitsoki/pkg/agent"
)

// RegistryCaller dispatches the engine's agent calls through the agent
// registry's one pipeline (request, transport, sub-events, schema
// validation), reporting agent.call.* events to sink.
func RegistryCaller(reg *agent.Registry, sink Sink) AgentCaller {
	as := AgentSink(sink)
	return AgentCallerFunc(func(ctx context.Context, c AgentCall) (*AgentAnswer, error) {
		res, err := reg.Dispatch(ctx, agent.Call{
			Alias: c.Alias, Verb: c.Verb, SessionID: c.SessionID, Turn: c.Turn, StatePath: c.StatePath,
			Prompt: c.Prompt, SchemaPath: c.SchemaPath, With: c.With, World: c.World, Persona: c.Persona, Model: c.Model,
			Timeout: c.Timeout, Sink: as,
		})
		if err != nil {
			return nil, err
		}
		return &AgentAnswer{Submission: res.Submission, Meta: res.Meta, CallID: res.CallID, Duration: res.Duration, Alias: res.Alias}, nil
	})
}
