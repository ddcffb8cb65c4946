package agentcall_test

import (
	"errors"
	"fmt"
	"testing"

	"kitsoki/internal/agentcall"
)

// Vectors from trace-eval.md A.11 (Python-verified, one seen in a real trace).
func TestIDVectors(t *testing.T) {
	cases := []struct{ app, key, want string }{
		{"bugfix", "recorded_host.agent.task_idle:0", "b895786bdbf74051"},
		{"bugfix", "phase_1_agent:0", "83737120abedb30d"},
		{"myapp", "run_any:0", "56c07538a6fef18b"},
		{"myapp", "run_any:1", "cb5a0fc6d598fe07"},
		{"cloak-of-darkness", "3:planning.refine:2", "462e43b208be5786"},
	}
	for _, c := range cases {
		if got := agentcall.ID(c.app, c.key); got != c.want {
			t.Errorf("ID(%q,%q) = %s want %s", c.app, c.key, got, c.want)
		}
	}
	if got := agentcall.LiveID("cloak-of-darkness", 3, "planning.refine", 2); got != "462e43b208be5786" {
		t.Errorf("LiveID = %s", got)
	}
	if got := agentcall.CassetteID("myapp", "run_any", 1); got != "cb5a0fc6d598fe07" {
		t.Errorf("CassetteID = %s", got)
	}
	// The keys behind the two call ids: "<turn>:<state_path>:<seq>" and
	// "<episode>:<match_idx>".
	if agentcall.LiveID("app", 3, "planning.refine", 2) != agentcall.ID("app", "3:planning.refine:2") ||
		agentcall.CassetteID("app", "ep", 4) != agentcall.ID("app", "ep:4") {
		t.Error("key formats changed")
	}
}

type failed struct{ id, alias string }

func (f *failed) Error() string                      { return "failed" }
func (f *failed) FailedCall() (callID, alias string) { return f.id, f.alias }

// TestFailedCall finds a Failure however deep it is wrapped, and says so
// when there is none.
func TestFailedCall(t *testing.T) {
	err := fmt.Errorf("agent: %q rendered to %q: %w", "{{ a }}", "agent.x", &failed{"c1", "agent.x"})
	if id, alias, ok := agentcall.FailedCall(err); !ok || id != "c1" || alias != "agent.x" {
		t.Errorf("FailedCall = %q, %q, %v", id, alias, ok)
	}
	if id, alias, ok := agentcall.FailedCall(errors.New("plain")); ok || id != "" || alias != "" {
		t.Errorf("FailedCall(plain) = %q, %q, %v", id, alias, ok)
	}
}
