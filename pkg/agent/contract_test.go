package agent_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"testing"
	"time"

	"kitsoki/pkg/agent"
)

func TestAskRequestWireNames(t *testing.T) {
	req := agent.AskRequest{
		SessionID: "s1", Turn: 4, StatePath: "room.sub", Verb: "decide",
		Prompt: "Decide X now\nplease", Schema: json.RawMessage(`{"type":"object","required":["decision"]}`),
		World:    agent.World{Vars: map[string]any{}},
		Deadline: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), CallID: "63a26a96c4e84952",
	}
	b, err := json.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"session_id":"s1","turn":4,"state_path":"room.sub","verb":"decide","prompt":"Decide X now\nplease","schema":{"type":"object","required":["decision"]},"world":{"vars":{}},"deadline":"2026-01-02T03:04:05Z","call_id":"63a26a96c4e84952"}`
	if string(b) != want {
		t.Fatalf("wire bytes:\n got %s\nwant %s", b, want)
	}
	var back agent.AskRequest
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, req) {
		t.Fatalf("round trip changed the request: %#v", back)
	}
}

func TestAskResponseKeepsSubmissionBytes(t *testing.T) {
	in := `{"submission":{"b":1,  "a":2},"meta":{"cost_usd":0.01},"sub_events":[{"turn":1,"seq":0,"ts":"2026-01-02T03:04:05Z","kind":"agent.x.tool","payload":{"k":"v"},"call_id":"abc"}]}`
	var r agent.AskResponse
	if err := json.Unmarshal([]byte(in), &r); err != nil {
		t.Fatal(err)
	}
	if string(r.Submission) != `{"b":1,  "a":2}` {
		t.Fatalf("submission not verbatim: %s", r.Submission)
	}
	if len(r.SubEvents) != 1 || r.SubEvents[0].Kind != "agent.x.tool" || r.SubEvents[0].CallID != "abc" {
		t.Fatalf("sub_events: %#v", r.SubEvents)
	}
}

// An explicit null answer is an answer (the JSON null), an absent one is
// none, including inside a JSON-RPC reply whose result is a *AskResponse.
func TestAskResponseNullSubmissionIsAnAnswer(t *testing.T) {
	for in, want := range map[string]string{`{"submission":null}`: "null", `{"submission": null ,"meta":{}}`: "null", `{}`: "", `{"meta":{"submission":null}}`: ""} {
		var r agent.AskResponse
		if err := json.Unmarshal([]byte(in), &r); err != nil {
			t.Fatal(err)
		}
		if string(r.Submission) != want || (want == "") != (r.Submission == nil) {
			t.Errorf("%s: submission %q (nil %v), want %q", in, r.Submission, r.Submission == nil, want)
		}
		var reply struct{ Result *agent.AskResponse }
		if err := json.Unmarshal([]byte(`{"result":`+in+`}`), &reply); err != nil || string(reply.Result.Submission) != want {
			t.Errorf("%s in a reply: %v %q, want %q", in, err, reply.Result.Submission, want)
		}
	}
}

func TestAskErrorFormat(t *testing.T) {
	cases := []struct {
		err  *agent.AskError
		want string
	}{
		{agent.Errorf(agent.KindSchemaInvalid, "missing property %q", "decision"), `agent: schema_invalid: missing property "decision"`},
		{&agent.AskError{Kind: agent.KindPluginCrash, Underlying: errors.New("boom")}, "agent: plugin_crash: boom"},
		{&agent.AskError{Kind: agent.KindTransportError}, "agent: transport_error"},
	}
	for _, c := range cases {
		if got := c.err.Error(); got != c.want {
			t.Errorf("got %q want %q", got, c.want)
		}
	}
	wrapped := fmt.Errorf("outer: %w", agent.Errorf(agent.KindDeadlineExceeded, "late"))
	if agent.KindOf(wrapped) != agent.KindDeadlineExceeded {
		t.Fatalf("KindOf through wrap = %q", agent.KindOf(wrapped))
	}
	if agent.KindOf(errors.New("plain")) != "" {
		t.Fatal("KindOf(plain) should be empty")
	}
	want := []string{"schema_invalid", "plugin_crash", "deadline_exceeded", "sub_event_namespace_violation", "sub_event_call_id_mismatch", "transport_error", "hook_vetoed"}
	for i, k := range agent.Kinds() {
		if string(k) != want[i] {
			t.Errorf("kind %d = %q want %q", i, k, want[i])
		}
	}
}

// ParseError reads back every kind AskError.Error writes, with and without
// a detail, and refuses other texts (an unknown kind, another prefix).
func TestParseErrorReadsAskError(t *testing.T) {
	for _, k := range agent.Kinds() {
		for _, detail := range []string{"", "submitted.x: missing"} {
			kind, got, ok := agent.ParseError((&agent.AskError{Kind: k, Detail: detail}).Error())
			if !ok || kind != k || got != detail {
				t.Errorf("ParseError of %s/%q = %q, %q, %v", k, detail, kind, got, ok)
			}
		}
	}
	for _, msg := range []string{"agent: no_such_kind: x", "agent:plugin_crash", "exit status 3", "agent: plugin_crashed", ""} {
		if kind, detail, ok := agent.ParseError(msg); ok {
			t.Errorf("ParseError(%q) = %q, %q, true; want not ok", msg, kind, detail)
		}
	}
}
