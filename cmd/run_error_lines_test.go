package cmd

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
)

// A plugin that dies prints why on stderr; the run log shows those lines
// under the failed call, not an ellipsis that sends the author to the
// trace.
func TestRunLogShowsPluginStderr(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a subprocess plugin")
	}
	bin := t.TempDir()
	plugin := filepath.Join(bin, "crash.sh")
	script := "#!/bin/sh\nread line\necho 'panic: index out of range' >&2\necho 'main.go:12 +0x1d' >&2\nexit 3\n"
	if err := os.WriteFile(plugin, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	dir := storytest.TempTree(t, map[string]string{
		"app.yaml": fmt.Sprintf(`app: {id: crashy, version: 0.1.0}
agent_plugins:
  agent.plug: {plugin: subprocess, command: %q}
hosts: [host.agent.decide]
world:
  out: {type: object, default: {}}
root: s
states:
  s:
    on_enter:
      - invoke: host.agent.decide
        id: pick
        agent: agent.plug
        with: {prompt: "pick one", schema: schemas/pick.json}
        bind: {out: submitted}
        on_error: done
  done: {terminal: true}
`, plugin),
		"schemas/pick.json": `{"type": "object"}`,
	})
	_, out, errOut := runCmd(t, "run", dir, "--trace", filepath.Join(t.TempDir(), "t.jsonl"))
	want := "stderr (last 8 KiB):\n      | panic: index out of range\n      | main.go:12 +0x1d\n  on_error → done"
	if !strings.Contains(out, want) {
		t.Fatalf("the log does not show the plugin's stderr under the call:\n%s\nstderr:\n%s", out, errOut)
	}
}

func TestErrorLinesKeepsTheLastLines(t *testing.T) {
	var b strings.Builder
	b.WriteString("call failed: stderr:")
	for i := 1; i <= errorLinesKept+3; i++ {
		fmt.Fprintf(&b, "\nline %d", i)
	}
	got := errorLines(b.String())
	lines := strings.Split(got, "\n")
	if lines[0] != "call failed: stderr:" || !strings.Contains(lines[1], "3 earlier lines in the trace") {
		t.Fatalf("head of %q", got)
	}
	if len(lines) != 2+errorLinesKept || lines[len(lines)-1] != fmt.Sprintf("      | line %d", errorLinesKept+3) {
		t.Fatalf("kept lines of %q", got)
	}
	if errorLines("one line") != "one line" {
		t.Fatal("a one-line error changed")
	}
}
