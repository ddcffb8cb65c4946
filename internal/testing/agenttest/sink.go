package agenttest

import (
	"encoding/json"
	"sync"

	"kitsoki/internal/jsonvalue"
	"kitsoki/pkg/agent"
)

// RecordingSink records every event, safe for concurrent use.
type RecordingSink struct {
	mu     sync.Mutex
	events []agent.Event
	// Fail, when set, is returned by Emit for events of that kind (sink
	// failure tests).
	Fail map[string]error
}

// Emit records ev.
func (s *RecordingSink) Emit(ev agent.Event) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.Fail[ev.Kind]; err != nil {
		return err
	}
	s.events = append(s.events, ev)
	return nil
}

// Events returns a copy of the recorded events.
func (s *RecordingSink) Events() []agent.Event {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]agent.Event(nil), s.events...)
}

// Kinds returns the recorded event kinds in order.
func (s *RecordingSink) Kinds() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]string, len(s.events))
	for i, e := range s.events {
		out[i] = e.Kind
	}
	return out
}

// First returns the first recorded event of kind.
func (s *RecordingSink) First(kind string) (agent.Event, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, e := range s.events {
		if e.Kind == kind {
			return e, true
		}
	}
	return agent.Event{}, false
}

// Reset forgets every recorded event.
func (s *RecordingSink) Reset() {
	s.mu.Lock()
	s.events = nil
	s.mu.Unlock()
}

// JSON renders every recorded event as one JSON object per element
// (kind, call_id, ts, turn, state_path, episode_id, match_idx, payload): what
// a secret-grep or a golden comparison looks at.
func (s *RecordingSink) JSON() []string {
	evs := s.Events()
	out := make([]string, len(evs))
	for i, e := range evs {
		b, err := json.Marshal(map[string]any{
			"kind": e.Kind, "call_id": e.CallID, "ts": e.TS, "turn": e.Turn, "state_path": e.StatePath,
			"episode_id": e.EpisodeID, "match_idx": e.MatchIdx, "payload": e.Payload,
		})
		if err != nil {
			b = []byte(`{"marshal_error":` + jsonString(err.Error()) + `}`)
		}
		out[i] = string(b)
	}
	return out
}

// PayloadMap returns e's payload as a generic JSON object (nil when the
// payload is not an object).
func PayloadMap(e agent.Event) map[string]any {
	m, _ := jsonvalue.RoundTrip(e.Payload).(map[string]any)
	return m
}

// Normalize renders events in a transport-independent form for comparing
// sequences across transports: kind and the payload with duration_ms, model
// every meta and mcp_session_id (transport-specific) removed. call_id is left out too:
// cassette calls derive it from the episode, live calls from the turn and
// state; compare Event.CallID separately.
func Normalize(evs []agent.Event) []string {
	out := make([]string, len(evs))
	for i, e := range evs {
		p := PayloadMap(e)
		delete(p, "duration_ms")
		delete(p, "meta")
		delete(p, "model")
		delete(p, "deadline")       // wall-clock: start + timeout
		delete(p, "provider")       // names the transport, which is what differs
		delete(p, "mcp_session_id") // mcp_http's alone
		if r, ok := p["response"].(map[string]any); ok {
			delete(r, "meta")
		}
		b, _ := json.Marshal(map[string]any{"kind": e.Kind, "payload": p})
		out[i] = string(b)
	}
	return out
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
