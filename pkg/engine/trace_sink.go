package engine

import (
	"kitsoki/pkg/agent"
	"kitsoki/pkg/trace"
)

// TraceSink writes the run's events to a trace file.
func TraceSink(w *trace.Writer) Sink {
	return SinkFunc(func(ev Event) error {
		return w.Append(trace.Event{
			Turn: int(ev.Turn), TS: ev.TS, Kind: ev.Kind, StatePath: ev.StatePath,
			CallID: ev.CallID, EpisodeID: ev.EpisodeID, MatchIdx: ev.MatchIdx, Payload: ev.Payload,
		})
	})
}

// AgentSink forwards the agent layer's events (agent.call.*, plugin
// sub-events) into the run's sink, so they land in the same trace, in order.
func AgentSink(s Sink) agent.Sink {
	return agent.SinkFunc(func(ev agent.Event) error {
		if s == nil {
			return nil
		}
		return s.Emit(Event{Turn: ev.Turn, Kind: ev.Kind, StatePath: ev.StatePath, CallID: ev.CallID,
			EpisodeID: ev.EpisodeID, MatchIdx: ev.MatchIdx, TS: ev.TS, Payload: ev.Payload})
	})
}
