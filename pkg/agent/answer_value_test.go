package agent_test

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"

	"kitsoki/internal/testing/agenttest"
	"kitsoki/pkg/agent"
	"kitsoki/pkg/story"
)

// Result.Value is the answer as the engine binds it, so the engine never
// decodes the answer again: the submission's one JSON value with int
// numbers; the text when the submission is not one JSON value as it
// stands (something after the value, whitespace alone, whitespace JSON
// does not allow around it); nil for none or null; and, when a secret
// spans the answer's JSON syntax, the masked text read as written (what
// the engine bound before it stopped decoding). Before, Value held int64
// numbers and the value inside such whitespace, and the engine decoded
// the submission a second time.
func TestAnswerValueIsTheBoundForm(t *testing.T) {
	const secret = `secret-one","b":"secret-two`
	red := agent.NewRedactor(map[string]*story.AgentPlugin{"agent.s": {Secrets: []string{secret}}})
	fx := agenttest.NewFixture(t, nil, agent.RegistryOptions{Redactor: red})
	var answer json.RawMessage
	_ = fx.Registry.RegisterInProcess("agent.v", agent.AgentFunc(func(ctx context.Context, req *agent.AskRequest) (*agent.AskResponse, error) {
		return &agent.AskResponse{Submission: answer}, nil
	}))
	for _, c := range []struct {
		in   string
		want any
	}{
		{`[1]]`, `[1]]`},
		{`{"a":1}}`, `{"a":1}}`},
		{`{"a":1} {}`, `{"a":1} {}`},
		{" [1, 2.5] \n", []any{1, 2.5}},
		{`{"n": 7}`, map[string]any{"n": 7}},
		{"  ", "  "},
		{"\v{\"a\":1}", "\v{\"a\":1}"},
		{"{\"a\":1}\u00a0", "{\"a\":1}\u00a0"},
		{"", nil},
		{"null", nil},
		{`{"a":"secret-one","b":"secret-two"}`, map[string]any{"a": agent.Redacted}},
		{`{"k":"secret-one","b":"secret-two-and-more"}`, map[string]any{"k": agent.Redacted + `-and-more`}},
	} {
		answer = json.RawMessage(c.in)
		res, err := fx.Registry.Dispatch(context.Background(), agent.Call{Alias: "agent.v", Verb: "ask"})
		if err != nil {
			t.Fatalf("%q: %v", c.in, err)
		}
		if !reflect.DeepEqual(res.Value, c.want) {
			t.Errorf("%q binds %#v, want %#v", c.in, res.Value, c.want)
		}
	}
}
