package agent

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"kitsoki/internal/agentcall"
	"kitsoki/pkg/pluginkit"
)

// AskRequest is what kitsoki sends to a plugin: the params of subprocess
// agent.ask, the arguments of the mcp_http tool call. It is pluginkit's
// Request, so the request a Go plugin decodes is the one kitsoki encodes:
// its field order and JSON names are defined once, there (seed §3).
type AskRequest = pluginkit.Request

// World is the read-only world snapshot inside an AskRequest: {"vars":{...}}.
type World = pluginkit.World

// AskResponse is what a plugin returns.
type AskResponse struct {
	// Submission is the agent's answer, kept byte-verbatim. Kitsoki validates
	// it against the call's schema. An explicit "submission": null decodes
	// as the JSON null (encoding/json hands null to RawMessage), not as no
	// answer, so it is recorded, exported and replayed as null.
	Submission json.RawMessage `json:"submission,omitempty"`
	// Meta is opaque plugin metadata (tokens, cost_usd, model, ...).
	Meta map[string]any `json:"meta,omitempty"`
	// SubEvents are plugin-internal events surfaced into the trace (seed §4).
	SubEvents []SubEvent `json:"sub_events,omitempty"`
	// Transcript is an optional backend-native execution log.
	Transcript *Transcript `json:"transcript,omitempty"`
	// Reply is set by a transport that answers as upstream's default verb
	// path (the injected agent.claude, for ask and converse): never on the
	// wire, a plugin cannot set it.
	Reply *Reply `json:"-"`
}

// Reply is the reply of a call on upstream's default verb path, whose verb
// result is built from the reply text rather than from a submission: ask
// binds {stdout, exit_code, ok} and submitted only for an answer given
// through the submit tool, converse {answer, session_id} (conformance
// ask-default-result), decide {claude_session_id, exit_code, ok,
// rationale, submitted} (conformance decide-default-validator).
type Reply struct {
	// Text is the reply less its trailing newlines (masked once it enters
	// the run).
	Text string
	// Submitted reports that the Submission is the model's answer, checked
	// against the call's schema: given through the submit tool, or
	// decide's first fenced block; otherwise it is the reply text, bound
	// unvalidated, and the verb result has no submitted.
	Submitted bool
	// SessionID is the claude session id of the call (converse's
	// session_id).
	SessionID string
	// ExitCode is claude's exit status when it failed (a refused decide's
	// exit_code, with ok false); 0 otherwise.
	ExitCode int
}

// SubEvent is one plugin-internal event (store.Event shape upstream). Kind
// must start with "<alias>." and CallID must equal the parent call_id; TS is
// discarded and re-stamped by kitsoki.
type SubEvent struct {
	Turn       int64           `json:"turn"`
	Seq        int             `json:"seq"`
	TS         time.Time       `json:"ts"`
	Kind       string          `json:"kind"`
	StatePath  string          `json:"state_path,omitempty"`
	Payload    json.RawMessage `json:"payload,omitempty"`
	ParentTurn int64           `json:"parent_turn,omitempty"`
	CallID     string          `json:"call_id"`
	EpisodeID  string          `json:"episode_id,omitempty"`
	MatchIdx   int             `json:"match_idx,omitempty"`
}

// Transcript is a backend-native execution log carried beside an answer.
type Transcript struct {
	Format  string            `json:"format"`
	Events  []json.RawMessage `json:"events"`
	Timings []int64           `json:"timings,omitempty"`
}

// RawEvents is t's events as the backend wrote them (nil for no t): a
// payload holding t returns them for the trace writer, which keeps them
// byte for byte where encoding/json would compact them (trace.RawTranscript).
func (t *Transcript) RawEvents() []json.RawMessage {
	if t == nil {
		return nil
	}
	return t.Events
}

// Kind classifies an AskError. The values are part of the trace contract.
type Kind string

// The error kinds of seed §7, plus hook_vetoed reserved for waterfall hooks.
const (
	KindSchemaInvalid              Kind = "schema_invalid"
	KindPluginCrash                Kind = "plugin_crash"
	KindDeadlineExceeded           Kind = "deadline_exceeded"
	KindSubEventNamespaceViolation Kind = "sub_event_namespace_violation"
	KindSubEventCallIDMismatch     Kind = "sub_event_call_id_mismatch"
	KindTransportError             Kind = "transport_error"
	// KindHookVetoed is reserved: a waterfall hook refused the call.
	KindHookVetoed Kind = "hook_vetoed"
)

// Kinds lists every error kind, in the order of seed §7 (hook_vetoed last).
func Kinds() []Kind {
	return []Kind{KindSchemaInvalid, KindPluginCrash, KindDeadlineExceeded,
		KindSubEventNamespaceViolation, KindSubEventCallIDMismatch, KindTransportError, KindHookVetoed}
}

// AskError is how a failed agent call is reported. It never travels on a
// wire; only Error() reaches the trace. Detail is human text and must never
// hold a secret (transports pass it through BuildContext.Redact).
type AskError struct {
	Kind       Kind
	Detail     string
	Underlying error
	// CallID is the id of the failed call as its agent.call.error event
	// carries it (set by Dispatch; cassette replays derive their own).
	CallID string
	// Alias is the plugin alias the call went to, after the pre-dispatch
	// hooks (set by Dispatch).
	Alias string
	// Reply is the reply of a decide on upstream's default verb path that
	// gave no answer satisfying its schema (its text masked): upstream's
	// handler fails such a call with data (DecideAbandoned).
	Reply *Reply
}

// DecideAbandoned is upstream's failure of a decide on its default verb
// path whose model never submitted an answer satisfying the schema (its
// outer loop's three tries spent; kitsoki makes one): the text a story's
// last_error holds, with the reply's data (conformance
// decide-default-validator). The agent.call.error event keeps kitsoki's
// own detail.
const DecideAbandoned = "validator: session abandoned without successful submit after 3 outer iteration(s), 0 attempt(s)"

// pluginError is an AskError of kind whose detail names the plugin
// ("<who>: <message>"), passed through redact as a whole.
func pluginError(redact func(string) string, who string, kind Kind, format string, args ...any) *AskError {
	return &AskError{Kind: kind, Detail: redact(who + ": " + fmt.Sprintf(format, args...))}
}

// Error renders "agent: <kind>: <detail>" (or the underlying error when
// there is no detail), the format traces carry.
func (e *AskError) Error() string {
	switch {
	case e.Detail != "":
		return "agent: " + string(e.Kind) + ": " + e.Detail
	case e.Underlying != nil:
		return "agent: " + string(e.Kind) + ": " + e.Underlying.Error()
	default:
		return "agent: " + string(e.Kind)
	}
}

// ParseError splits a text [AskError.Error] wrote, "agent: <kind>" or
// "agent: <kind>: <detail>" with one of [Kinds], into kind and detail; ok
// is false for any other text.
func ParseError(msg string) (kind Kind, detail string, ok bool) {
	rest, found := strings.CutPrefix(msg, "agent: ")
	if !found {
		return "", "", false
	}
	for _, k := range Kinds() {
		if rest == string(k) {
			return k, "", true
		}
		if d, found := strings.CutPrefix(rest, string(k)+": "); found {
			return k, d, true
		}
	}
	return "", "", false
}

// KindName returns the kind as text. The engine reads it (through an
// interface, without importing this package's types) to set
// world.host_error.kind when an agent call fails.
func (e *AskError) KindName() string { return string(e.Kind) }

// Unwrap returns the underlying error, if any.
func (e *AskError) Unwrap() error { return e.Underlying }

// FailedCall returns CallID and Alias: the engine reads them through
// agentcall.FailedCall, without importing this package.
func (e *AskError) FailedCall() (callID, alias string) { return e.CallID, e.Alias }

var _ agentcall.Failure = (*AskError)(nil)

// Errorf builds an *AskError whose Detail is the formatted text.
func Errorf(kind Kind, format string, args ...any) *AskError {
	return &AskError{Kind: kind, Detail: fmt.Sprintf(format, args...)}
}

// KindOf returns the Kind of the first *AskError in err's chain, or "" when
// there is none.
func KindOf(err error) Kind {
	if ae, ok := errors.AsType[*AskError](err); ok {
		return ae.Kind
	}
	return ""
}
