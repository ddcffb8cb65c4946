package agent_test

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// The contract package stays small: it never imports the llama-server
// download and supervision packages (builtin.local_llm lives in
// pkg/agent/localllm and is wired in by the composition root), nor the
// trace writer or the engine (events leave through Sink). The same check
// run on localllm must find fetch and sidecar, so the check itself works.
// Nor does the engine import this package.
func TestImportRule(t *testing.T) {
	t.Parallel() // runs go list only
	forbidden := []string{"kitsoki/pkg/fetch", "kitsoki/pkg/sidecar", "kitsoki/pkg/trace", "kitsoki/pkg/engine", "kitsoki/pkg/agent/localllm"}
	if got := reached(t, "kitsoki/pkg/agent", forbidden); len(got) > 0 {
		t.Errorf("pkg/agent imports %v (directly or not); keep what needs them in another package (see doc.go)", got)
	}
	// The engine talks to agents through its AgentCaller and reads call
	// ids and failed calls through internal/agentcall.
	if got := reached(t, "kitsoki/pkg/engine", []string{"kitsoki/pkg/agent"}); len(got) > 0 {
		t.Errorf("pkg/engine imports %v (directly or not); share what it needs through internal/agentcall", got)
	}
	if got := reached(t, "kitsoki/pkg/agent/localllm", forbidden); !slices.Contains(got, "kitsoki/pkg/fetch") || !slices.Contains(got, "kitsoki/pkg/sidecar") {
		t.Errorf("the check does not see localllm's imports of fetch and sidecar: %v", got)
	}
}

// reached lists the packages of among that pkg depends on (go list -deps,
// test files not included).
func reached(t *testing.T, pkg string, among []string) []string {
	t.Helper()
	out, err := exec.Command("go", "list", "-deps", pkg).Output()
	if err != nil {
		t.Fatalf("go list -deps %s: %v", pkg, err)
	}
	var got []string
	for dep := range strings.FieldsSeq(string(out)) {
		if slices.Contains(among, dep) {
			got = append(got, dep)
		}
	}
	return got
}
