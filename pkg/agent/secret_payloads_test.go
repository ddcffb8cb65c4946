package agent_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"kitsoki/internal/testing/agenttest"
	"kitsoki/pkg/agent"
	"kitsoki/pkg/story"
)

// TestSecretsMaskedInEveryPayload (redteam22, held): a declared secret
// spanning the JSON syntax and a numeric one are masked wherever a call
// puts them: the submission (a number, a float holding it, a bare
// number), meta, sub-event payloads, the transcript, the request's with:,
// world and prompt, and a transport error; checked in the trace lines,
// the bound value and the returned error, each form a JSON text takes.
func TestSecretsMaskedInEveryPayload(t *testing.T) {
	const span = `sp-one","b":"sp-two`
	const num = "98765432"
	red := agent.NewRedactor(map[string]*story.AgentPlugin{"agent.s": {Secrets: []string{span, num}}})
	fx := agenttest.NewFixture(t, nil, agent.RegistryOptions{Redactor: red})
	var resp *agent.AskResponse
	var rerr error
	_ = fx.Registry.RegisterInProcess("agent.v", agent.AgentFunc(func(ctx context.Context, req *agent.AskRequest) (*agent.AskResponse, error) {
		return resp, rerr
	}))
	cases := []struct {
		name string
		r    *agent.AskResponse
		err  error
		call agent.Call
	}{
		{"sub num", &agent.AskResponse{Submission: json.RawMessage(`{"n":98765432}`)}, nil, agent.Call{}},
		{"sub num float", &agent.AskResponse{Submission: json.RawMessage(`{"n":98765432.5}`)}, nil, agent.Call{}},
		{"sub num bare", &agent.AskResponse{Submission: json.RawMessage(`98765432`)}, nil, agent.Call{}},
		{"meta num", &agent.AskResponse{Submission: json.RawMessage(`{}`), Meta: map[string]any{"k": 98765432, "c": "x"}}, nil, agent.Call{}},
		{"meta span", &agent.AskResponse{Submission: json.RawMessage(`{}`), Meta: map[string]any{"a": "sp-one", "b": "sp-two"}}, nil, agent.Call{}},
		{"subevent", &agent.AskResponse{Submission: json.RawMessage(`{}`), SubEvents: []agent.SubEvent{{Kind: "agent.v.x", Payload: json.RawMessage(`{"a":"sp-one","b":"sp-two","n":98765432}`)}}}, nil, agent.Call{}},
		{"transcript", &agent.AskResponse{Submission: json.RawMessage(`{}`), Transcript: &agent.Transcript{Events: []json.RawMessage{json.RawMessage(`{"a":"sp-one","b":"sp-two","n":98765432}`)}}}, nil, agent.Call{}},
		{"with", &agent.AskResponse{Submission: json.RawMessage(`{}`)}, nil, agent.Call{With: map[string]any{"a": "sp-one", "b": "sp-two", "n": 98765432}}},
		{"world", &agent.AskResponse{Submission: json.RawMessage(`{}`)}, nil, agent.Call{World: map[string]any{"a": "sp-one", "b": "sp-two", "n": 98765432}}},
		{"prompt", &agent.AskResponse{Submission: json.RawMessage(`{}`)}, nil, agent.Call{Prompt: `{"a":"sp-one","b":"sp-two"} 98765432`}},
		{"err", nil, errors.New(`boom {"a":"sp-one","b":"sp-two"} 98765432`), agent.Call{}},
	}
	for _, c := range cases {
		resp, rerr = c.r, c.err
		c.call.Alias, c.call.Verb = "agent.v", "ask"
		res, err := fx.Registry.Dispatch(context.Background(), c.call)
		all := strings.Join(fx.Sink.JSON(), "\n") + fmt.Sprintf("%v %+v", err, res)
		if res != nil {
			b, _ := json.Marshal(res.Value)
			all += string(b) + string(res.Submission)
		}
		for _, s := range []string{span, `sp-one\",\"b\":\"sp-two`, num} {
			if strings.Contains(all, s) {
				t.Errorf("%s: %q leaks:\n%s", c.name, s, all)
			}
		}
	}
}
