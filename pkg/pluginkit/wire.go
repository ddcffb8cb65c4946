package pluginkit

import (
	"encoding/json"
	"time"
)

// Request is what kitsoki sends a plugin for one agent call (AskRequest;
// pkg/agent's AskRequest is this type). Field order and JSON names are the
// wire contract (seed 000 §3); do not reorder.
type Request struct {
	SessionID string          `json:"session_id"`
	Turn      int64           `json:"turn"`
	StatePath string          `json:"state_path"`
	Verb      string          `json:"verb"`             // ask, decide, extract, task, converse
	Prompt    string          `json:"prompt"`           // fully rendered
	Schema    json.RawMessage `json:"schema,omitempty"` // the call's JSON Schema, bundled; absent when the call has none
	With      map[string]any  `json:"with,omitempty"`   // the story's with: block, opaque to kitsoki
	World     World           `json:"world"`            // read-only snapshot, deep-copied per call
	Deadline  time.Time       `json:"deadline"`         // soft: honour it, kitsoki's hard cap is its own
	CallID    string          `json:"call_id"`          // 16 hex chars: the id the trace gives the call
}

// World is the read-only world snapshot of a Request.
type World struct {
	Vars map[string]any `json:"vars"`
}

// Response is a plugin's answer (AskResponse).
type Response struct {
	// Submission is the answer, kept byte for byte; kitsoki validates it
	// against the call's schema.
	Submission json.RawMessage `json:"submission,omitempty"`
	// Meta is opaque to kitsoki: tokens, cost_usd, model, ...
	Meta      map[string]any `json:"meta,omitempty"`
	SubEvents []SubEvent     `json:"sub_events,omitempty"`
}

// SubEvent is a plugin-internal event surfaced into the trace. Kind must
// start with "<alias>." and CallID must be the request's call_id, or kitsoki
// rejects the whole answer (seed 000 §4).
type SubEvent struct {
	Kind    string          `json:"kind"`
	CallID  string          `json:"call_id"`
	Payload json.RawMessage `json:"payload,omitempty"`
}

// Submit is a convenience for the common case: v marshalled as the
// submission, with optional meta.
func Submit(v any, meta map[string]any) (*Response, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return &Response{Submission: b, Meta: meta}, nil
}
