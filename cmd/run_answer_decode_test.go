package cmd

import (
	"fmt"
	"path/filepath"
	"runtime"
	"testing"

	"kitsoki/internal/testing/storytest"
)

// A big agent answer is decoded once, by the agent layer: the engine binds
// the agent's value and does not decode the submission again. Measured as
// what a whole in-process `kitsoki run` allocates per byte of the answer
// (a real subprocess plugin, the echo agent's big:<n>; the run with a
// 1-byte answer taken off). A second decode (encoding/json's growing read
// buffer and the decoded string again) costs several bytes per answer
// byte; the bound lies halfway between a run with one decode and a run
// with two (the figures are in the commit that added this test). Not
// parallel: the counter is the process's.
func TestBigAnswerDecodedOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("an 8 MiB answer")
	}
	echo := echoAgent(t)
	dir := storytest.TempTree(t, nil)
	allocated := func(n int) uint64 {
		t.Helper()
		story := filepath.Join(dir, fmt.Sprintf("s%d", n))
		storytest.WriteTree(t, story, map[string]string{"app.yaml": fmt.Sprintf(`app: { id: big }
world:
  out: { type: object, default: {} }
agent_plugins:
  agent.echo:
    plugin: subprocess
    command: %q
root: ask
states:
  ask:
    terminal: true
    on_enter:
      - invoke: host.agent.ask
        agent: agent.echo
        with: { prompt: "go", fault: "big:%d" }
        bind: { out: submitted }
`, echo, n)})
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		if code, _, stderr := runCmd(t, "run", story, "--trace", filepath.Join(story, "run.jsonl")); code != 0 {
			t.Fatalf("run: exit %d\n%.2000s", code, stderr)
		}
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc
	}
	const n = 8 << 20
	small := allocated(1)
	big := allocated(n)
	perByte := float64(big-min(big, small)) / n
	t.Logf("a run allocates %.1f bytes per answer byte", perByte)
	if perByte > 11 {
		t.Errorf("a run allocates %.1f bytes per byte of an %d-byte answer: the answer is decoded more than once", perByte, n)
	}
}
