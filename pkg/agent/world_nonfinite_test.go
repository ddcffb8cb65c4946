package agent_test

import (
	"context"
	"encoding/json"
	"math"
	"testing"

	"kitsoki/internal/testing/agenttest"
	"kitsoki/pkg/agent"
)

// A NaN or infinite world value (a story's `default: .nan`) or with:
// value (`{{ 0 / world.z }}`) reaches a plugin as its text, so the
// request still encodes as JSON and the call goes on, as upstream's does
// (it sends neither; probed hunt49 with a subprocess plugin under
// `kitsoki-existing drive`); the engine's values are not written.
func TestWorldNonFiniteGoesAsText(t *testing.T) {
	fx := agenttest.NewFixture(t, nil, agent.RegistryOptions{})
	var got, gotWith []byte
	_ = fx.Registry.RegisterInProcess("agent.v", agent.AgentFunc(func(ctx context.Context, req *agent.AskRequest) (*agent.AskResponse, error) {
		var err error
		if got, err = json.Marshal(req.World); err == nil {
			gotWith, err = json.Marshal(req.With)
		}
		return &agent.AskResponse{Submission: json.RawMessage(`{}`)}, err
	}))
	world := map[string]any{"d": math.NaN(), "e": []any{math.Inf(1), math.Inf(-1)}, "n": 1.5}
	with := map[string]any{"x": math.NaN(), "m": map[string]any{"y": math.Inf(-1)}, "s": "a"}
	if _, err := fx.Registry.Dispatch(context.Background(), agent.Call{Alias: "agent.v", Verb: "ask", World: world, With: with}); err != nil {
		t.Fatal(err)
	}
	if want := `{"vars":{"d":"NaN","e":["+Inf","-Inf"],"n":1.5}}`; string(got) != want {
		t.Errorf("world sent: %s, want %s", got, want)
	}
	if want := `{"m":{"y":"-Inf"},"s":"a","x":"NaN"}`; string(gotWith) != want {
		t.Errorf("with sent: %s, want %s", gotWith, want)
	}
	if f, _ := world["d"].(float64); !math.IsNaN(f) {
		t.Errorf("the caller's world was written: %v", world["d"])
	}
	if f, _ := with["x"].(float64); !math.IsNaN(f) {
		t.Errorf("the caller's with: was written: %v", with["x"])
	}
}
