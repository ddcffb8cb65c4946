// Package echo is the answer logic shared by kitsoki's test plugins: the
// subprocess plugin program (../echoagent), the MCP test server (../mcpecho)
// and the in-process agent of the conformance suite. It deliberately does not
// import kitsoki/pkg/agent: it speaks the wire format with its own types, the
// way an independent plugin author would, so the tests check the wire and
// not a shared Go struct.
//
// A request selects a fault with the string with.fault. Faults that concern
// the answer itself are built here; faults that concern the host process or
// server (crash, hang, garbage, drop, http500, ...) are acted out by each
// host program and listed in its own doc.
package echo

import (
	"encoding/json"
	"strconv"
	"strings"
	"time"
)

// Request is the AskRequest as a plugin sees it on the wire.
type Request struct {
	SessionID string          `json:"session_id"`
	Turn      int64           `json:"turn"`
	StatePath string          `json:"state_path"`
	Verb      string          `json:"verb"`
	Prompt    string          `json:"prompt"`
	Schema    json.RawMessage `json:"schema,omitempty"`
	With      map[string]any  `json:"with,omitempty"`
	World     json.RawMessage `json:"world"`
	Deadline  string          `json:"deadline"`
	CallID    string          `json:"call_id"`
}

// SubEvent is one plugin-internal event on the wire.
type SubEvent struct {
	Turn      int64  `json:"turn"`
	TS        string `json:"ts,omitempty"`
	Kind      string `json:"kind"`
	StatePath string `json:"state_path,omitempty"`
	Payload   any    `json:"payload,omitempty"`
	CallID    string `json:"call_id"`
}

// Response is the AskResponse as a plugin writes it.
type Response struct {
	Submission json.RawMessage `json:"submission,omitempty"`
	Meta       map[string]any  `json:"meta,omitempty"`
	SubEvents  []SubEvent      `json:"sub_events,omitempty"`
}

// PromptHeadBytes is how much of the prompt the reference answer echoes.
const PromptHeadBytes = 50

// Fault returns with.fault, or "" when the request names none.
func Fault(r *Request) string {
	s, _ := r.With["fault"].(string)
	return s
}

// FaultArg splits "name:arg" faults such as "slow:200" or "big:1000".
func FaultArg(fault string) (name, arg string) {
	name, arg, _ = strings.Cut(fault, ":")
	return name, arg
}

// Reference is the conformance reference submission for r: compact JSON,
// keys sorted, the first 50 bytes of the prompt and the verb.
func Reference(r *Request) json.RawMessage {
	head := r.Prompt
	if len(head) > PromptHeadBytes {
		head = head[:PromptHeadBytes]
	}
	b, _ := json.Marshal(map[string]string{"echo_prompt_head": head, "echo_verb": r.Verb})
	return b
}

// Answer builds the reply to r for the answer-level faults:
//
//	""               the reference submission
//	schema_invalid   {"unexpected":true} (misses the reference schema's required keys)
//	namespace        a sub-event whose kind is outside the plugin's namespace
//	call_id          a sub-event in the namespace with a foreign call_id
//	sub_events       two valid sub-events (kind prefix from with.alias)
//	big:<n>          the reference keys plus "blob", a string of n bytes
//	env              submission {"env":[...]} listing the plugin's environment
//
// transport is written into meta so tests can see meta is kept apart from
// the submission. env is the plugin's environment (os.Environ()); it is only
// used by the "env" fault.
func Answer(r *Request, transport string, env []string) Response {
	alias, _ := r.With["alias"].(string)
	resp := Response{
		Submission: Reference(r),
		Meta:       map[string]any{"echo": true, "transport": transport},
	}
	name, arg := FaultArg(Fault(r))
	switch name {
	case "schema_invalid":
		resp.Submission = json.RawMessage(`{"unexpected":true}`)
	case "namespace":
		resp.SubEvents = []SubEvent{{Turn: r.Turn, Kind: "someone.else.tool", CallID: r.CallID}}
	case "call_id":
		resp.SubEvents = []SubEvent{{Turn: r.Turn, Kind: alias + ".tool", CallID: "ffffffffffffffff"}}
	case "sub_events":
		now := time.Now().UTC().Format(time.RFC3339Nano)
		resp.SubEvents = []SubEvent{
			{Turn: r.Turn, TS: "1999-01-01T00:00:00Z", Kind: alias + ".tool.start", StatePath: r.StatePath, Payload: map[string]any{"tool": "read"}, CallID: r.CallID},
			{Turn: r.Turn, TS: now, Kind: alias + ".tool.end", StatePath: r.StatePath, Payload: map[string]any{"ok": true}, CallID: r.CallID},
		}
	case "big":
		n, _ := strconv.Atoi(arg)
		head := r.Prompt
		if len(head) > PromptHeadBytes {
			head = head[:PromptHeadBytes]
		}
		b, _ := json.Marshal(map[string]string{"blob": strings.Repeat("x", n), "echo_prompt_head": head, "echo_verb": r.Verb})
		resp.Submission = b
	case "env":
		b, _ := json.Marshal(map[string]any{"env": env})
		resp.Submission = b
	}
	return resp
}
