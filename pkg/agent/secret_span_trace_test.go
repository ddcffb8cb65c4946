package agent_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"kitsoki/internal/testing/agenttest"
	"kitsoki/pkg/agent"
	"kitsoki/pkg/story"
)

// A secret that spans the answer's JSON syntax (a declared value holding
// `","`) is masked in what the trace writes as well as in what the run
// binds: agent.call.complete's submission is the masked answer read as
// written, not the answer's own value masked string by string, whose
// strings each hold only a piece of the secret and which, encoded again,
// spelled it whole. A secret inside one string is traced as before.
func TestSecretSpanningJSONSyntaxStaysOutOfTheTrace(t *testing.T) {
	const secret = `secret-one","b":"secret-two`
	red := agent.NewRedactor(map[string]*story.AgentPlugin{"agent.s": {Secrets: []string{secret, "plain-secret-value"}}})
	fx := agenttest.NewFixture(t, nil, agent.RegistryOptions{Redactor: red})
	var answer json.RawMessage
	_ = fx.Registry.RegisterInProcess("agent.v", agent.AgentFunc(func(ctx context.Context, req *agent.AskRequest) (*agent.AskResponse, error) {
		return &agent.AskResponse{Submission: answer}, nil
	}))
	for _, c := range []struct{ in, traced string }{
		{`{"a":"secret-one","b":"secret-two"}`, `{"a":"` + agent.Redacted + `"}`},
		{`{"a":"x plain-secret-value y","n":1}`, `{"a":"x ` + agent.Redacted + ` y","n":1}`},
	} {
		answer = json.RawMessage(c.in)
		if _, err := fx.Registry.Dispatch(context.Background(), agent.Call{Alias: "agent.v", Verb: "ask"}); err != nil {
			t.Fatalf("%s: %v", c.in, err)
		}
		lines := fx.Sink.JSON()
		last := lines[len(lines)-1]
		if strings.Contains(last, secret) || strings.Contains(last, "plain-secret-value") {
			t.Errorf("%s: the trace spells the secret:\n%s", c.in, last)
		}
		if !strings.Contains(last, `"submission":`+c.traced) {
			t.Errorf("%s: the trace's submission is not %s:\n%s", c.in, c.traced, last)
		}
	}
}
