package agenttest

import (
	"context"
	"encoding/json"
	"time"

	"kitsoki/pkg/agent"
)

// The conformance reference of agent-contract.md §11.1: a decide call with
// this prompt must come back from every transport as exactly
// ReferenceSubmission.
const (
	referenceVerb       = "decide"
	ReferencePrompt     = "which is the best option for this context?"
	ReferenceSubmission = `{"echo_prompt_head":"which is the best option for this context?","echo_verb":"decide"}`
	// ReferenceAlias is the alias conformance tests register every transport under.
	ReferenceAlias = "agent.echo"
	// referenceSchemaName is the schema file NewFixture writes under schemas/.
	referenceSchemaName = "echo.json"
	// referenceSchema accepts exactly the echo answer's shape.
	referenceSchema = `{
  "type": "object",
  "required": ["echo_prompt_head", "echo_verb"],
  "additionalProperties": false,
  "properties": {
    "echo_prompt_head": {"type": "string", "maxLength": 50},
    "echo_verb": {"type": "string", "enum": ["ask", "decide", "extract", "task", "converse"]}
  }
}`
)

// ReferenceCall is the conformance call: alias ReferenceAlias, the reference
// verb and prompt, schema schemas/echo.json, turn 1 in state "room".
func ReferenceCall() agent.Call {
	return agent.Call{
		Alias:      ReferenceAlias,
		Verb:       referenceVerb,
		SessionID:  "conformance",
		Turn:       1,
		StatePath:  "room",
		Prompt:     ReferencePrompt,
		SchemaPath: "schemas/" + referenceSchemaName,
		World:      map[string]any{"repo": "acme/infra"},
	}
}

// Fault selects how the echo agent misbehaves. Out-of-process test plugins
// implement the same modes with the same names (env KITSOKI_TEST_FAULT).
type Fault string

const (
	FaultNone          Fault = ""               // echo answer
	FaultSubEvents     Fault = "sub_events"     // echo answer plus two valid sub-events "<alias>.tool" and "<alias>.note"
	FaultSchemaInvalid Fault = "schema_invalid" // {"echo_verb":42}: valid JSON, wrong shape
	FaultMalformed     Fault = "malformed"      // submission bytes that are not JSON
	FaultCrash         Fault = "crash"          // the agent dies mid-call (in-process: returns a plain error)
	FaultHang          Fault = "hang"           // never answers (in-process: blocks until ctx is done)
	FaultLate          Fault = "late"           // answers, but only after the deadline (ignores ctx)
	FaultNamespace     Fault = "namespace"      // a sub-event whose kind is outside "<alias>."
	FaultCallID        Fault = "call_id"        // a sub-event whose call_id is not the request's
)

// Faults lists the fault modes with the error kind Dispatch must report.
func Faults() map[Fault]agent.Kind {
	return map[Fault]agent.Kind{
		FaultSchemaInvalid: agent.KindSchemaInvalid,
		FaultMalformed:     agent.KindSchemaInvalid,
		FaultCrash:         agent.KindPluginCrash,
		FaultHang:          agent.KindDeadlineExceeded,
		FaultLate:          agent.KindDeadlineExceeded,
		FaultNamespace:     agent.KindSubEventNamespaceViolation,
		FaultCallID:        agent.KindSubEventCallIDMismatch,
	}
}

// EchoSubmission is the echo answer for a request: the first 50 bytes of the
// prompt and the verb, keys sorted, compact.
func EchoSubmission(req *agent.AskRequest) json.RawMessage {
	head := req.Prompt
	if len(head) > 50 {
		head = head[:50]
	}
	b, _ := json.Marshal(echo{head, req.Verb})
	return b
}

// echo marshals with sorted keys, like the map upstream's echo plugin uses.
type echo struct {
	Head string `json:"echo_prompt_head"`
	Verb string `json:"echo_verb"`
}

// EchoResponse builds the response the echo agent gives for fault f, as any
// transport's test plugin must: the same submission bytes and sub-events.
func EchoResponse(alias string, f Fault, req *agent.AskRequest, transport string) *agent.AskResponse {
	resp := &agent.AskResponse{
		Submission: EchoSubmission(req),
		Meta:       map[string]any{"echo": true, "transport": transport},
	}
	sub := func(kind, callID string) agent.SubEvent {
		return agent.SubEvent{Turn: req.Turn, Kind: kind, StatePath: req.StatePath, CallID: callID,
			TS: time.Date(1999, 1, 1, 0, 0, 0, 0, time.UTC), Payload: json.RawMessage(`{"tool":"bash","n":1}`)}
	}
	switch f {
	case FaultSubEvents:
		resp.SubEvents = []agent.SubEvent{sub(alias+".tool", req.CallID), sub(alias+".note", req.CallID)}
	case FaultSchemaInvalid:
		resp.Submission = json.RawMessage(`{"echo_verb":42}`)
	case FaultMalformed:
		resp.Submission = json.RawMessage(`{"echo_verb": "decide"`)
	case FaultNamespace:
		resp.SubEvents = []agent.SubEvent{sub(alias+".tool", req.CallID), sub("agent.other.tool", req.CallID)}
	case FaultCallID:
		resp.SubEvents = []agent.SubEvent{sub(alias+".tool", "0000000000000000")}
	}
	return resp
}

// EchoAgent is the in-process echo agent for alias, misbehaving as f says.
func EchoAgent(alias string, f Fault) agent.Agent {
	return agent.AgentFunc(func(ctx context.Context, req *agent.AskRequest) (*agent.AskResponse, error) {
		switch f {
		case FaultCrash:
			return nil, errCrash
		case FaultHang:
			<-ctx.Done()
			return nil, ctx.Err()
		case FaultLate:
			<-ctx.Done()
			time.Sleep(20 * time.Millisecond)
			return EchoResponse(alias, FaultNone, req, "inprocess"), nil
		}
		return EchoResponse(alias, f, req, "inprocess"), nil
	})
}

type crashError struct{}

func (crashError) Error() string { return "echo agent crashed (fault mode crash)" }

var errCrash error = crashError{}
