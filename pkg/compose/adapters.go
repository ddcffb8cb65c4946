package compose

import (
	"context"
	"errors"

	"kitsoki/pkg/agent"
	"kitsoki/pkg/engine"
	"kitsoki/pkg/trace"
)

// RegistryCaller answers the engine's agent calls through the registry's
// one pipeline, which reports agent.call.* events to sink.
func RegistryCaller(reg *agent.Registry, sink engine.Sink) engine.AgentCaller {
	as := AgentSink(sink)
	return engine.AgentCallerFunc(func(ctx context.Context, c engine.AgentCall) (*engine.AgentAnswer, error) {
		res, err := reg.Dispatch(ctx, agent.Call{
			Alias: c.Alias, Verb: c.Verb, SessionID: c.SessionID, Turn: c.Turn, StatePath: c.StatePath,
			Prompt: c.Prompt, SchemaPath: c.SchemaPath, With: c.With, World: c.World, Persona: c.Persona, Model: c.Model,
			Timeout: c.Timeout, Sink: as,
		})
		if err != nil {
			return nil, decideAbandoned(c.Verb, err)
		}
		ans := &engine.AgentAnswer{Submission: res.Submission, Value: res.Value, Meta: res.Meta, CallID: res.CallID, Alias: res.Alias}
		if rp := res.Reply; rp != nil {
			ans.Reply = &engine.AgentReply{Text: rp.Text, Submitted: rp.Submitted, SessionID: rp.SessionID}
		}
		return ans, nil
	})
}

// decideAbandoned is a failed decide on upstream's default verb path (an
// *agent.AskError carrying its Reply) as upstream's handler gives it: a
// domain error in its words, with the reply's data, which the call's
// bind: still reads; any other error as it is.
func decideAbandoned(verb string, err error) error {
	var ae *agent.AskError
	if verb != "decide" || !errors.As(err, &ae) || ae.Reply == nil {
		return err
	}
	data := map[string]any{"claude_session_id": ae.Reply.SessionID, "exit_code": ae.Reply.ExitCode, "ok": ae.Reply.ExitCode == 0, "rationale": ae.Reply.Text}
	return &engine.AgentDomainError{Msg: agent.DecideAbandoned, Data: data, Err: err}
}

// AgentSink forwards the agent layer's events into the run's sink; a nil
// sink drops them.
func AgentSink(s engine.Sink) agent.Sink {
	return agent.SinkFunc(func(ev agent.Event) error {
		if s == nil {
			return nil
		}
		return s.Emit(engine.Event{Turn: ev.Turn, Kind: ev.Kind, StatePath: ev.StatePath, CallID: ev.CallID,
			EpisodeID: ev.EpisodeID, MatchIdx: ev.MatchIdx, TS: ev.TS, Payload: ev.Payload})
	})
}

// TraceSink writes a run's events to a trace file.
func TraceSink(w *trace.Writer) engine.Sink {
	return engine.SinkFunc(func(ev engine.Event) error {
		return w.Append(trace.Event{
			Turn: int(ev.Turn), TS: ev.TS, Kind: ev.Kind, StatePath: ev.StatePath,
			CallID: ev.CallID, EpisodeID: ev.EpisodeID, MatchIdx: ev.MatchIdx, Payload: ev.Payload,
		})
	})
}
