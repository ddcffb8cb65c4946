package agent_test

import (
	"context"
	"encoding/json"
	"testing"

	"kitsoki/internal/testing/agenttest"
	"kitsoki/pkg/agent"
)

// FuzzSubmission feeds arbitrary plugin answers through Dispatch with the
// reference schema: the result is either a valid submission or
// schema_invalid, never a panic or another kind.
func FuzzSubmission(f *testing.F) {
	for _, s := range []string{agenttest.ReferenceSubmission, `{"echo_verb":42}`, `{"echo_verb": "decide"`, ``, `null`,
		`{"echo_prompt_head":"x","echo_verb":"ask"} trailing`, `{"echo_prompt_head":"x","echo_verb":"ask","n":12345678901234567890}`,
		"\"\\ud800\"", `[1,2,3]`} {
		f.Add([]byte(s))
	}
	fx := agenttest.NewFixture(f, nil, agent.RegistryOptions{})
	var answer []byte
	_ = fx.Registry.RegisterInProcess(agenttest.ReferenceAlias, agent.AgentFunc(func(ctx context.Context, req *agent.AskRequest) (*agent.AskResponse, error) {
		return &agent.AskResponse{Submission: json.RawMessage(answer)}, nil
	}))
	f.Fuzz(func(t *testing.T, data []byte) {
		answer = data
		fx.Sink.Reset()
		res, err := fx.Registry.Dispatch(context.Background(), agenttest.ReferenceCall())
		if err != nil {
			if agent.KindOf(err) != agent.KindSchemaInvalid {
				t.Fatalf("answer %q: %v", data, err)
			}
			return
		}
		m, ok := res.Value.(map[string]any)
		if !ok || m["echo_verb"] == nil || !json.Valid(data) {
			t.Fatalf("answer %q accepted as %#v", data, res.Value)
		}
	})
}
