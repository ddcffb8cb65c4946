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
	Turn      int64           `json:"turn"`
	TS        string          `json:"ts,omitempty"`
	Kind      string          `json:"kind"`
	StatePath string          `json:"state_path,omitempty"`
	Payload   json.RawMessage `json:"payload,omitempty"`
	CallID    string          `json:"call_id"`
}

// Response is the AskResponse as a plugin writes it.
type Response struct {
	Submission json.RawMessage `json:"submission,omitempty"`
	Meta       map[string]any  `json:"meta,omitempty"`
	SubEvents  []SubEvent      `json:"sub_events,omitempty"`
}

// promptHeadBytes is how much of the prompt the reference answer echoes.
const promptHeadBytes = 50

// Fault returns with.fault, or fallback (the host's default fault, e.g.
// the environment variable KITSOKI_TEST_FAULT) when the request names none.
func Fault(r *Request, fallback string) string {
	if s, _ := r.With["fault"].(string); s != "" {
		return s
	}
	return fallback
}

// Alias returns with.alias, or fallback (e.g. KITSOKI_TEST_ALIAS): the
// plugin's alias, which prefixes its sub-event kinds.
func Alias(r *Request, fallback string) string {
	if s, _ := r.With["alias"].(string); s != "" {
		return s
	}
	return fallback
}

// FaultArg splits "name:arg" faults such as "big:1000".
func FaultArg(fault string) (name, arg string) {
	name, arg, _ = strings.Cut(fault, ":")
	return name, arg
}

// referenceSubmission is the conformance reference submission for r: compact JSON,
// keys sorted, the first 50 bytes of the prompt and the verb.
func referenceSubmission(r *Request) json.RawMessage {
	b, _ := json.Marshal(map[string]string{"echo_prompt_head": head(r.Prompt), "echo_verb": r.Verb})
	return b
}

func head(p string) string {
	if len(p) > promptHeadBytes {
		return p[:promptHeadBytes]
	}
	return p
}

// malformedAnswer is the malformed-JSON answer of the conformance suite. A plugin
// on a JSON wire cannot put broken JSON in the submission field, so the
// out-of-process plugins send it as a JSON string (what a plugin passing a
// model's broken text through would do); kitsoki rejects both forms as
// schema_invalid.
const malformedAnswer = `{"echo_verb": "decide"`

// Answer builds the reply to r for the answer-level faults. They mirror
// kitsoki/internal/testing/agenttest mode for mode, byte for byte:
//
//	""               the reference submission
//	sub_events       the reference plus sub-events <alias>.tool and <alias>.note
//	schema_invalid   {"echo_verb":42}
//	malformed        the string Malformed
//	namespace        sub-events <alias>.tool and agent.other.tool
//	call_id          a sub-event <alias>.tool with call_id 0000000000000000
//	big:<n>          the reference keys plus "blob", a string of n bytes
//	env              {"env":[...]}, the plugin's environment (env)
//	unsorted         {"b":1,"a":2}: keys out of order, to check bytes survive
//	transcript       the reference, and the transcript TranscriptWire, which
//	                 the plugin splices into its answer (WithTranscript)
//
// transport is written into meta so tests can see meta is kept apart from
// the submission.
func Answer(r *Request, fault, alias, transport string, env []string) Response {
	resp := Response{
		Submission: referenceSubmission(r),
		Meta:       map[string]any{"echo": true, "transport": transport},
	}
	sub := func(kind, callID string) SubEvent {
		return SubEvent{Turn: r.Turn, TS: "1999-01-01T00:00:00Z", Kind: kind, StatePath: r.StatePath, CallID: callID,
			Payload: json.RawMessage(`{"tool":"bash","n":1}`)}
	}
	name, arg := FaultArg(fault)
	switch name {
	case "sub_events":
		resp.SubEvents = []SubEvent{sub(alias+".tool", r.CallID), sub(alias+".note", r.CallID)}
	case "schema_invalid":
		resp.Submission = json.RawMessage(`{"echo_verb":42}`)
	case "malformed":
		b, _ := json.Marshal(malformedAnswer)
		resp.Submission = b
	case "namespace":
		resp.SubEvents = []SubEvent{sub(alias+".tool", r.CallID), sub("agent.other.tool", r.CallID)}
	case "call_id":
		resp.SubEvents = []SubEvent{sub(alias+".tool", "0000000000000000")}
	case "big":
		n, _ := strconv.Atoi(arg)
		b, _ := json.Marshal(map[string]string{"blob": strings.Repeat("x", n), "echo_prompt_head": head(r.Prompt), "echo_verb": r.Verb})
		resp.Submission = b
	case "env":
		b, _ := json.Marshal(map[string]any{"env": env})
		resp.Submission = b
	case "unsorted":
		resp.Submission = json.RawMessage(`{"b":1,"a":2}`)
	case "answer":
		// answer:<JSON> submits that JSON value byte for byte
		resp.Submission = json.RawMessage(arg)
	}
	return resp
}

// lateBy is how long after the request's soft deadline a "late" plugin
// answers (the conformance suite sets the soft deadline to the hard one):
// far enough that no loaded machine sees the answer before the deadline;
// the transports stop waiting at the deadline, so no test waits it out.
const lateBy = 5 * time.Second

// SleepLate sleeps until LateBy past r's deadline (or LateBy when the
// deadline is unreadable or already long gone).
func SleepLate(r *Request) {
	d := lateBy
	if t, err := time.Parse(time.RFC3339Nano, r.Deadline); err == nil {
		if until := time.Until(t) + lateBy; until > d {
			d = until
		}
	}
	time.Sleep(d)
}

// TranscriptWire is the transcript the transcript fault answers with, as
// it goes on the wire: its events spaced, keys unsorted, escaped, a
// number with a trailing zero and a tab, which encoding/json would
// compact or rewrite. TranscriptEvents is its events as the trace's
// transcripts/<call_id>.jsonl must hold them, one a line.
const (
	TranscriptWire   = `{"format":"echo-fmt","events":[{"type": "system", "b":1,"a":2}, [1,  2],  "str\u0041", 1.50, {"u":"\u00e9\/x"},` + "\t" + `{"t":` + "\t" + `1}],"timings":[5, 6]}`
	TranscriptEvents = `{"type": "system", "b":1,"a":2}` + "\n" + `[1,  2]` + "\n" + `"str\u0041"` + "\n" + `1.50` + "\n" + `{"u":"\u00e9\/x"}` + "\n" + `{"t":` + "\t" + `1}` + "\n"
)

// WithTranscript is the marshalled answer b with TranscriptWire spliced
// in as its transcript, byte for byte (encoding/json would compact it).
func WithTranscript(b []byte) []byte {
	b = b[:len(b)-1] // the object's closing brace
	if len(b) > 1 {
		b = append(b, ',')
	}
	return append(append(b, `"transcript":`+TranscriptWire...), '}')
}
