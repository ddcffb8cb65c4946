package engine

import (
	"context"
	"encoding/json"
	"strings"
	"time"
)

// AgentCall is one host.agent.<verb> call as the engine hands it to the
// agent layer: prompt rendered, schema path resolved, with: rendered.
type AgentCall struct {
	Verb       string         // ask, decide, extract, task, converse
	Alias      string         // agent_plugins alias; "agent.claude" when the effect names none
	Persona    string         // with.agent (agents: persona), may be ""
	Model      string         // the persona's model, for the trace
	Prompt     string         // fully rendered prompt text
	SchemaPath string         // story-relative schema path, "" when none
	With       map[string]any // the rendered with: block
	World      map[string]any // the live world: read-only, valid during the call (pkg/agent sends a deep copy)
	SessionID  string
	Turn       int64
	StatePath  string
	CallID     string // derived live call id (16 hex)
	EffectID   string // the effect's id:, "" when none
	// Timeout is the invoke's timeout: (0 = the agent layer's default, the
	// run's --call-timeout).
	Timeout time.Duration
}

// AgentAnswer is a successful agent call.
type AgentAnswer struct {
	// Submission is the answer as the agent gave it (masked), for the
	// stdout text of a bind.
	Submission json.RawMessage
	// Value is the submission as bound, decoded by the agent layer (the
	// engine never decodes an answer again; pkg/agent's Result.Value says
	// its form): a JSON value with int and float64 numbers, the text when
	// the submission is not one JSON value, nil for none or null.
	Value  any
	Meta   map[string]any
	CallID string
	// Alias is the plugin alias that served the call (a pre-dispatch hook
	// may have rerouted it); "" = the call's Alias.
	Alias string
	// Reply is set for a call answered on upstream's default verb path
	// (the injected agent.claude): ask and converse then bind its result
	// shape (agentResult); nil for any other call.
	Reply *AgentReply
}

// AgentReply is the reply of a call on upstream's default verb path
// (pkg/agent's Reply).
type AgentReply struct {
	Text      string // the reply verbatim
	Submitted bool   // Value came through the submit tool (ask's submitted)
	SessionID string // converse's session_id
}

// AgentCaller dispatches agent calls. The implementation reports
// agent.call.* events itself (through the run's Sink; pkg/compose's
// RegistryCaller is the one over the agent registry); the engine only
// records harness.* around it.
type AgentCaller interface {
	CallAgent(ctx context.Context, call AgentCall) (*AgentAnswer, error)
}

// AgentCallerFunc adapts a function to AgentCaller.
type AgentCallerFunc func(ctx context.Context, call AgentCall) (*AgentAnswer, error)

// CallAgent calls f.
func (f AgentCallerFunc) CallAgent(ctx context.Context, call AgentCall) (*AgentAnswer, error) {
	return f(ctx, call)
}

// NoAgentLayer is an AgentCaller that stands for no agent layer at all
// (upstream's flow rig, which registers no host.agent.<verb> handler): a
// call fails with Unregistered's error before its prompt is looked at, as
// upstream never renders the prompt of a call it has no handler for
// (conformance prompt-unopenable-inline).
type NoAgentLayer interface {
	AgentCaller
	Unregistered(verb string) error
}

// unregistered is the failure of an agent call when the agent layer is a
// NoAgentLayer.
func unregistered(a AgentCaller, invoke string) error {
	if na, ok := a.(NoAgentLayer); ok {
		return na.Unregistered(strings.TrimPrefix(invoke, "host.agent."))
	}
	return nil
}

// CallSummary is one agent or host call in the run summary.
type CallSummary struct {
	Handler    string `json:"handler"`
	ID         string `json:"id,omitempty"`
	CallID     string `json:"call_id,omitempty"`
	Agent      string `json:"agent,omitempty"`
	State      string `json:"state"`
	Turn       int64  `json:"turn"`
	DurationMS int64  `json:"duration_ms"`
	OK         bool   `json:"ok"`
	Error      string `json:"error,omitempty"`
}
