package agent_test

import (
	"testing"

	"kitsoki/pkg/agent"
)

// Vectors from trace-eval.md A.11 (Python-verified, one seen in a real trace).
func TestCallIDVectors(t *testing.T) {
	cases := []struct{ app, key, want string }{
		{"bugfix", "recorded_host.agent.task_idle:0", "b895786bdbf74051"},
		{"bugfix", "phase_1_agent:0", "83737120abedb30d"},
		{"myapp", "run_any:0", "56c07538a6fef18b"},
		{"myapp", "run_any:1", "cb5a0fc6d598fe07"},
		{"cloak-of-darkness", "3:planning.refine:2", "462e43b208be5786"},
	}
	for _, c := range cases {
		if got := agent.CallID(c.app, c.key); got != c.want {
			t.Errorf("CallID(%q,%q) = %s want %s", c.app, c.key, got, c.want)
		}
	}
	if got := agent.LiveCallID("cloak-of-darkness", 3, "planning.refine", 2); got != "462e43b208be5786" {
		t.Errorf("LiveCallID = %s", got)
	}
	if got := agent.CassetteCallID("myapp", "run_any", 1); got != "cb5a0fc6d598fe07" {
		t.Errorf("CassetteCallID = %s", got)
	}
	// The keys behind the two call ids: "<turn>:<state_path>:<seq>" and
	// "<episode>:<match_idx>".
	if agent.LiveCallID("app", 3, "planning.refine", 2) != agent.CallID("app", "3:planning.refine:2") ||
		agent.CassetteCallID("app", "ep", 4) != agent.CallID("app", "ep:4") {
		t.Error("key formats changed")
	}
}
