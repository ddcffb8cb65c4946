package agent

import (
	"context"
	"runtime"
	"strings"
	"testing"

	"kitsoki/pkg/story"
)

// Bounded reads of a plugin's output (contract audit, item 3): a stdout
// line that never ends is cut at the frame cap and the plugin killed; a
// flood of stderr with no newline keeps only its tail. The stdout flood is
// endless, so the call returning at all shows the read is bounded; the
// allocation check bounds what the stderr flood costs.

func TestSubprocessEndlessStdoutLineIsCut(t *testing.T) {
	CheckNoChildren(t)
	// a 1 MiB cap: the flood is endless, so the product's 64 MiB would only
	// cost more (childproc's TestFrameCapIsTheDocumented holds that value)
	tr, err := newSubprocessTransport(&story.AgentPlugin{Alias: "agent.echo", Plugin: story.PluginSubprocess,
		Command: BuildTestPlugin(t, "echoagent")}, BuildContext{StoryDir: t.TempDir(), frameCap: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tr.Close() })
	ae := askKind(t, tr, context.Background(), withFault("flood_stdout"), KindPluginCrash)
	if !strings.Contains(ae.Detail, "1 MiB frame cap") || !strings.Contains(ae.Detail, "process group was killed") {
		t.Fatalf("detail: %s", ae.Detail)
	}
	askOK(t, tr, referenceRequest()) // a new process answers
}

func TestSubprocessStderrFloodKeepsATail(t *testing.T) {
	CheckNoChildren(t)
	// No logger: the stderr tail alone holds what the plugin wrote.
	tr, err := newSubprocessTransport(&story.AgentPlugin{Alias: "agent.echo", Plugin: story.PluginSubprocess,
		Command: BuildTestPlugin(t, "echoagent")}, BuildContext{StoryDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tr.Close() })
	askOK(t, tr, referenceRequest()) // started: its start-up costs are not counted
	const mib = 256
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	askOK(t, tr, withFault("flood_stderr:256"))
	runtime.ReadMemStats(&after)
	got := after.TotalAlloc - before.TotalAlloc
	t.Logf("%d MiB of stderr read with %d KiB allocated", mib, got>>10)
	if got > mib<<20/4 {
		t.Fatalf("reading %d MiB of stderr allocated %d MiB", mib, got>>20)
	}
}
