package cmd

import (
	"fmt"
	"path/filepath"
	"runtime"
	"testing"

	"kitsoki/internal/testing/storytest"
)

// bigAnswerStory writes a story whose one agent call is answered with n
// bytes (a real subprocess plugin, the echo agent's big:<n>) and returns
// the run's command line (its trace beside the story).
func bigAnswerStory(tb testing.TB, n int) []string {
	dir := agentAnswerStory(tb, buildTestBinary(tb, "kitsoki/internal/testing/agentplugins/echoagent"), fmt.Sprintf(`{ prompt: "go", fault: "big:%d" }`, n))
	return []string{"run", filepath.Join(dir, "story"), "--trace", filepath.Join(dir, "run.jsonl")}
}

// agentAnswerStory writes story/app.yaml under a new directory, which it
// returns: one host.agent.ask of the subprocess plugin command with with,
// the answer bound to the world's out.
func agentAnswerStory(tb testing.TB, command, with string) string {
	tb.Helper()
	return storytest.TempTree(tb, map[string]string{"story/app.yaml": fmt.Sprintf(`app: { id: big }
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
        with: %s
        bind: { out: submitted }
`, command, with)})
}

// A big agent answer is decoded once, by the agent layer: the engine binds
// the agent's value and does not decode the submission again. Measured as
// what a whole in-process `kitsoki run` allocates per byte of the answer
// (the run with a 1-byte answer taken off). A second decode
// (encoding/json's growing read buffer and the decoded string again)
// costs several bytes per answer byte; the bound lies halfway between a
// run with one decode and a run with two (the figures, the same per byte
// at 1 and 8 MiB, are in the commits that added this test and shrank its
// answer; BenchmarkRunBigAnswer keeps 8 MiB). Not parallel: the counter
// is the process's.
func TestBigAnswerDecodedOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("a 1 MiB answer")
	}
	allocated := func(n int) uint64 {
		args := bigAnswerStory(t, n)
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		mustRun(t, args...)
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc
	}
	const n = 1 << 20
	small := allocated(1)
	big := allocated(n)
	perByte := float64(big-min(big, small)) / n
	t.Logf("a run allocates %.1f bytes per answer byte", perByte)
	if perByte > 11 {
		t.Errorf("a run allocates %.1f bytes per byte of a %d-byte answer: the answer is decoded more than once", perByte, n)
	}
}

// BenchmarkRunBigAnswer is one in-process `kitsoki run` whose agent call
// is answered with 8 MiB by a subprocess plugin (B/op is the figure).
func BenchmarkRunBigAnswer(b *testing.B) {
	args := bigAnswerStory(b, 8<<20)
	b.ReportAllocs()
	for b.Loop() {
		mustRun(b, args...)
	}
}
