package agent

import (
	"encoding/json"
	"time"
)

// Event kinds Dispatch reports.
const (
	EventCallStart    = "agent.call.start"
	EventCallComplete = "agent.call.complete"
	EventCallError    = "agent.call.error"
)

// Event is one trace event reported by Dispatch. pkg/trace satisfies Sink
// with an adapter; this package never imports it.
//
// Payload is JSON-encodable: *CallStartPayload, *CallCompletePayload and
// *CallErrorPayload for agent.call.* (struct field order is the trace's key
// order), json.RawMessage (verbatim from the plugin) for sub-events.
type Event struct {
	Kind      string
	CallID    string
	TS        time.Time // call start for agent.call.start; re-stamped for sub-events
	Turn      int64
	StatePath string
	EpisodeID string // cassette replay only, on agent.call.start
	MatchIdx  int    // cassette replay only, on agent.call.start
	Payload   any
}

// Sink receives the events of agent calls in order: agent.call.start, then
// the call's sub-events, then agent.call.complete or agent.call.error.
// Implementations must be safe for concurrent use when sessions share one.
type Sink interface {
	Emit(ev Event) error
}

// SinkFunc adapts a function to Sink.
type SinkFunc func(ev Event) error

// Emit calls f(ev).
func (f SinkFunc) Emit(ev Event) error { return f(ev) }

// CallStartPayload is the payload of agent.call.start.
type CallStartPayload struct {
	Verb   string `json:"verb"`
	Agent  string `json:"agent,omitempty"` // persona (with.agent), else the plugin alias
	Model  string `json:"model,omitempty"`
	Prompt string `json:"prompt,omitempty"` // inline; the trace writer may offload it to a sidecar
	// Input is the verb descriptor ({"schema_path": ..., "schema_present":
	// true}), or a replayed cassette episode's agent.input as recorded: any
	// value but null, "" and {} included (pkg/compose
	// TestHostCassetteReplaysAgentInput).
	Input any `json:"input,omitempty"`
	// The rest is the request exactly as the plugin receives it, after the
	// pre-dispatch hooks (model-visible = logged), secrets masked: the
	// alias that serves the call, the persona's system prompt, the with:
	// block, the (bundled) schema document, the soft deadline and the hard
	// timeout.
	Alias        string          `json:"alias,omitempty"`
	Provider     string          `json:"provider,omitempty"` // gen_ai.provider.name for OTLP export (provider.go)
	SystemPrompt string          `json:"system_prompt,omitempty"`
	With         map[string]any  `json:"with,omitempty"`
	Schema       json.RawMessage `json:"schema,omitempty"`
	Deadline     string          `json:"deadline,omitempty"` // RFC 3339, UTC
	TimeoutMS    int64           `json:"timeout_ms,omitempty"`
}

// CallResponse is the response object inside agent.call.complete.
type CallResponse struct {
	Submission any            `json:"submission,omitempty"`
	Meta       map[string]any `json:"meta,omitempty"`
}

// CallCompletePayload is the payload of agent.call.complete.
type CallCompletePayload struct {
	Verb       string         `json:"verb"`
	Agent      string         `json:"agent,omitempty"`
	Model      string         `json:"model,omitempty"`
	DurationMS int64          `json:"duration_ms"`
	Response   *CallResponse  `json:"response,omitempty"`
	Meta       map[string]any `json:"meta,omitempty"`
	// Transcript is the backend's own log of the call (local_llm's
	// openai-chat events, a plugin's transcript), masked; the trace writer
	// moves it to transcripts/<call_id>.jsonl and names it with
	// transcript_ref, as the existing engine does (trace-eval A.10).
	Transcript *Transcript `json:"transcript,omitempty"`
	// Substitution is set when a fallback answered the call (fallback.go).
	Substitution *Substitution `json:"substitution,omitempty"`
	// MCPSessionID is the Mcp-Session-Id the mcp_http server gave the
	// session that served the call, to find the call in the server's logs.
	MCPSessionID string `json:"mcp_session_id,omitempty"`
	// Stray describes lines the plugin wrote that answer no waiting call
	// (a second answer, an answer to an ended call, a notification),
	// noticed during this call or since the plugin's previous one: never
	// bound, reported here (notes.go).
	Stray []string `json:"stray,omitempty"`
}

// TranscriptEvents is the transcript's events as written (trace.RawTranscript).
func (p CallCompletePayload) TranscriptEvents() []json.RawMessage { return p.Transcript.RawEvents() }

// CallErrorPayload is the payload of agent.call.error.
type CallErrorPayload struct {
	Verb       string `json:"verb"`
	Agent      string `json:"agent,omitempty"`
	DurationMS int64  `json:"duration_ms"`
	Error      string `json:"error"`
	// Meta is what the plugin reported with an answer that was then
	// refused (a post-return veto, an answer past the deadline), masked:
	// its cost still counts.
	Meta map[string]any `json:"meta,omitempty"`
	// TimeoutMS is the hard timeout a deadline_exceeded call ran under.
	TimeoutMS int64 `json:"timeout_ms,omitempty"`
	// Discarded is an answer that arrived after the hard deadline: kept
	// for the record (masked), never bound.
	Discarded *CallResponse `json:"discarded,omitempty"`
	// Substitution is set when the call failed after a fallback.
	Substitution *Substitution `json:"substitution,omitempty"`
	// Transcript is that of the answers that arrived and were refused
	// (a schema_invalid answer, and a fallback's), as on complete.
	Transcript *Transcript `json:"transcript,omitempty"`
	// MCPSessionID and Stray are as on complete.
	MCPSessionID string   `json:"mcp_session_id,omitempty"`
	Stray        []string `json:"stray,omitempty"`
}

// TranscriptEvents is the transcript's events as written (trace.RawTranscript).
func (p CallErrorPayload) TranscriptEvents() []json.RawMessage { return p.Transcript.RawEvents() }
