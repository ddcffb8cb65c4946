//go:build unix

package cmd

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"kitsoki/internal/testing/storytest"
	"kitsoki/pkg/trace"
)

// TestRunSIGKILLLeavesAReadableTracePrefix kills `kitsoki run` with SIGKILL
// at random points of a run that never ends by itself (two states handing
// over through 1ms timeouts, each hand-over a turn of several events, with a
// world value large enough to cross buffer boundaries). Every trace left
// behind must verify, or be rejected only for a torn last line with the
// documented message: no other corruption.
func TestRunSIGKILLLeavesAReadableTracePrefix(t *testing.T) {
	t.Parallel() // only its own subprocesses and temp dir
	storytest.NeedGo(t)
	bin := buildKitsoki(t)
	dir := t.TempDir()
	story := `app: { id: pingpong }
world:
  n:   { type: int, default: 0 }
  pad: { type: string, default: "` + strings.Repeat("abcdefgh", 300) + `" }
root: ping
states:
  ping:
    on_enter:
      - increment: { n: 1 }
      - set: { pad: "{{ world.pad }}" }
    timeout: { after: 1ms, target: pong }
  pong:
    on_enter:
      - increment: { n: 1 }
    timeout: { after: 1ms, target: ping }
`
	if err := os.WriteFile(filepath.Join(dir, "app.yaml"), []byte(story), 0o644); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	torn := 0
	for i := range 6 {
		tr := filepath.Join(dir, "t"+string(rune('a'+i))+".jsonl")
		cmd := exec.Command(bin, "run", dir, "--trace", tr)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// The kill point is chosen in events, not in time: wait for the
		// trace to hold at least one turn, then for a random number of
		// further lines, so a loaded machine only makes the run slower.
		target := 2 + rng.IntN(400)
		if !waitForLines(tr, target, 2*time.Minute) {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("run %d: the trace never reached %d lines", i, target)
		}
		if err := cmd.Process.Kill(); err != nil {
			t.Fatal(err)
		}
		cmd.Wait()
		res, err := trace.VerifyFile(tr)
		if err == nil {
			if res.Events < 2 {
				t.Fatalf("run %d: only %d events before the kill", i, res.Events)
			}
			continue
		}
		if ce, ok := errors.AsType[*trace.CorruptError](err); !ok || ce.Rule != trace.RuleTrailingNewline {
			t.Fatalf("run %d: corruption other than a torn last line: %v", i, err)
		}
		torn++
	}
	t.Logf("%d of 6 kills tore the last line", torn)
}

// waitForLines waits (waitFor) until the file at path holds at least n
// complete lines.
func waitForLines(path string, n int, within time.Duration) bool {
	return waitFor(func() bool {
		b, err := os.ReadFile(path)
		return err == nil && bytes.Count(b, []byte{'\n'}) >= n
	}, within)
}
