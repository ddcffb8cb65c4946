package plugin

import (
	"slices"
	"testing"

	"kitsoki/pkg/host"
)

// TestHostRunProvidesEveryProgramBuiltin: the host.run plugin provides
// every built-in that is not sandbox-safe (each starts a program: git, go,
// workspace-manager, a shell), so the operator's disable: [host.run]
// reaches a built-in added later too.
func TestHostRunProvidesEveryProgramBuiltin(t *testing.T) {
	var provides []string
	for _, d := range builtinDescriptors() {
		if d.ID == idHostRun {
			provides = d.Provides
		}
	}
	n := 0
	for _, name := range host.Builtins(host.Options{}).Names() {
		if host.SandboxSafe(name) {
			continue
		}
		n++
		if !slices.Contains(provides, "host:"+name) {
			t.Errorf("built-in %s starts a program (not sandbox-safe) but the host.run plugin does not provide it: disable: [host.run] would leave it running; add it to the host.run descriptor's Provides", name)
		}
	}
	if n < 4 {
		t.Fatalf("found %d built-ins that start a program, want host.run, host.git, host.git_worktree, host.local and more", n)
	}
}
