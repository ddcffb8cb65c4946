package agent_test

import (
	"context"
	"encoding/json"
	"math"
	"testing"

	"kitsoki/internal/testing/agenttest"
	"kitsoki/pkg/agent"
)

// A NaN or infinite world value (a story's `default: .nan`) reaches a
// plugin as its text, so the request still encodes as JSON (upstream
// sends no world at all); the engine's world is not written.
func TestWorldNonFiniteGoesAsText(t *testing.T) {
	fx := agenttest.NewFixture(t, nil, agent.RegistryOptions{})
	var got []byte
	_ = fx.Registry.RegisterInProcess("agent.v", agent.AgentFunc(func(ctx context.Context, req *agent.AskRequest) (*agent.AskResponse, error) {
		var err error
		got, err = json.Marshal(req.World)
		return &agent.AskResponse{Submission: json.RawMessage(`{}`)}, err
	}))
	world := map[string]any{"d": math.NaN(), "e": []any{math.Inf(1), math.Inf(-1)}, "n": 1.5}
	if _, err := fx.Registry.Dispatch(context.Background(), agent.Call{Alias: "agent.v", Verb: "ask", World: world}); err != nil {
		t.Fatal(err)
	}
	if want := `{"vars":{"d":"NaN","e":["+Inf","-Inf"],"n":1.5}}`; string(got) != want {
		t.Errorf("world sent: %s, want %s", got, want)
	}
	if f, _ := world["d"].(float64); !math.IsNaN(f) {
		t.Errorf("the caller's world was written: %v", world["d"])
	}
}
