package agent_test

import (
	"context"
	"encoding/json"
	"maps"
	"math"
	"testing"

	"kitsoki/internal/testing/agenttest"
	"kitsoki/pkg/agent"
)

// An answer's numbers are read as written: integers up to int64 exactly
// (past 2^53 too) as int, anything with a point or an exponent as a
// float, and -0.0 keeps its sign. The engine's view of the same answer is held to the
// existing engine by pkg/engine/testdata/conformance/agent-answer-numbers.
func TestAnswerNumbersReadAsWritten(t *testing.T) {
	fx := agenttest.NewFixture(t, nil, agent.RegistryOptions{})
	var answer json.RawMessage
	_ = fx.Registry.RegisterInProcess("agent.n", agent.AgentFunc(func(ctx context.Context, req *agent.AskRequest) (*agent.AskResponse, error) {
		return &agent.AskResponse{Submission: answer}, nil
	}))
	read := func(a string) map[string]any {
		t.Helper()
		answer = json.RawMessage(a)
		res, err := fx.Registry.Dispatch(context.Background(), agent.Call{Alias: "agent.n", Verb: "decide"})
		if err != nil {
			t.Fatal(err)
		}
		if string(res.Submission) != a {
			t.Errorf("submission %s not kept verbatim", res.Submission)
		}
		return res.Value.(map[string]any)
	}
	// Short numbers and long ones (16+ digits) are read the same way.
	m := read(`{"a":1.0,"b":1,"c":1e3,"d":-0.0}`)
	maps.Copy(m, read(`{"e":9007199254740993,"f":12345678901234567890}`))
	want := map[string]any{"a": 1.0, "b": 1, "c": 1000.0, "e": 9007199254740993, "f": 1.2345678901234567e19}
	for k, w := range want {
		if m[k] != w {
			t.Errorf("%s = %#v (%T), want %#v (%T)", k, m[k], m[k], w, w)
		}
	}
	if d, ok := m["d"].(float64); !ok || d != 0 || !math.Signbit(d) {
		t.Errorf("d = %#v, want -0.0", m["d"])
	}
}

// A submission is one JSON value: without a schema, one with anything
// after it (a stray '}' included, which json.Decoder.More let through)
// binds as the raw text it is, not as the value before the junk.
func TestAnswerWithTrailingDataIsText(t *testing.T) {
	fx := agenttest.NewFixture(t, nil, agent.RegistryOptions{})
	var answer json.RawMessage
	_ = fx.Registry.RegisterInProcess("agent.n", agent.AgentFunc(func(ctx context.Context, req *agent.AskRequest) (*agent.AskResponse, error) {
		return &agent.AskResponse{Submission: answer}, nil
	}))
	for _, a := range []string{`{"a":1}}`, `{"a":1} {"b":2}`, `[1]]`, `1 2`} {
		answer = json.RawMessage(a)
		res, err := fx.Registry.Dispatch(context.Background(), agent.Call{Alias: "agent.n", Verb: "decide"})
		if err != nil {
			t.Fatal(err)
		}
		if res.Value != a {
			t.Errorf("%s bound as %#v, want the text", a, res.Value)
		}
	}
}
