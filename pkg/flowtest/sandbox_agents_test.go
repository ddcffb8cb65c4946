package flowtest

import (
	"context"
	"path/filepath"
	"testing"
)

// Under --sandbox a host_bindings fixture starts no agent: an agent verb
// is refused, and the fixture fails naming it and the flag (without
// --sandbox it reaches the story's real agents: conformance
// host-bindings-real-agent, whose claude stand-in is not on PATH here).
func TestSandboxRefusesRealAgent(t *testing.T) {
	dir := filepath.Join("..", "host", "testdata", "conformance", "host-bindings-real-agent")
	app, _ := filepath.Abs(filepath.Join(dir, "app.yaml"))
	files, _, err := DiscoverUnder("", nil, []string{app}, filepath.Join(dir, "flows", "go-run.yaml"), false, nil)
	if err != nil || len(files) != 1 {
		t.Fatalf("discover: %v (%d fixtures)", err, len(files))
	}
	rs := NewRunner(Options{Jobs: 1, Sandbox: true}).Run(context.Background(), files)
	wantFail(t, rs[0], "host.agent.ask: fixture", "kitsoki test --sandbox")
}
