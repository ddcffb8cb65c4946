package cmd

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"kitsoki/internal/testing/leak"
)

// A huge answer (under the transports' 64 MiB frame cap) through a real
// run: the trace it leaves verifies (no line over the reader's limit),
// `trace show` reads it, and the answer is in a blob file beside it.
func TestHugeAnswerTraceVerifies(t *testing.T) {
	t.Parallel() // only its own subprocesses and temp dirs
	if testing.Short() {
		t.Skip("a 34 MiB answer")
	}
	bin := buildKitsoki(t)
	plugin := buildTestBinary(t, "kitsoki/internal/testing/leakyplugin")
	dir := agentAnswerStory(t, plugin, fmt.Sprintf("{ prompt: \"go\", channel: %s }", leak.Big))
	tr := filepath.Join(dir, "run.jsonl")
	if out, err := exec.Command(bin, "run", filepath.Join(dir, "story"), "--trace", tr).CombinedOutput(); err != nil {
		t.Fatalf("run: %v\n%.2000s", err, out)
	}
	if out, err := exec.Command(bin, "trace", "verify", tr).CombinedOutput(); err != nil {
		t.Fatalf("trace verify rejects what the run wrote: %v\n%s", err, out)
	}
	blobs, _ := filepath.Glob(filepath.Join(dir, "agent-prompts", "blob-*"))
	if len(blobs) != 1 {
		t.Fatalf("blobs: %v", blobs)
	}
	if fi, err := os.Stat(tr); err != nil || fi.Size() > 8<<20 {
		t.Fatalf("the trace holds the answer inline: %v %d bytes", err, fi.Size())
	}
	out, err := exec.Command(bin, "trace", "show", tr).CombinedOutput()
	if err != nil || !bytes.Contains(out, []byte("host.agent.ask returned {")) {
		t.Fatalf("trace show: %v\n%.2000s", err, out)
	}
}
