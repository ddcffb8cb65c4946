//go:build unix

package cmd

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"kitsoki/internal/testing/storytest"
)

// TestRunInterruptStopsPluginsAndLeavesValidTrace builds the real binary,
// starts a run whose plugin is alive while a host.run sleeps, sends SIGINT,
// and checks: exit 1, the plugin process is gone, the trace verifies.
func TestRunInterruptStopsPluginsAndLeavesValidTrace(t *testing.T) {
	storytest.NeedGo(t)
	bin := buildKitsoki(t)
	plugin := buildTestBinary(t, "kitsoki/examples/plugins/triage-agent")
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "plugin.pid")
	story := fmt.Sprintf(`app: { id: interrupt, version: 0.1.0 }
agent_plugins:
  agent.rules:
    plugin: subprocess
    command: %q
    env: { TRIAGE_AGENT_PIDFILE: %q }
hosts: [host.agent.extract, host.run]
world:
  x: { type: object, default: {} }
root: start
states:
  start:
    on_enter:
      - invoke: host.agent.extract
        agent: agent.rules
        with: { prompt: "sev 2 service=db", schema: schemas/x.json }
        bind: { x: submitted }
      - invoke: host.run
        with: { cmd: "sleep 60" }
    terminal: true
`, plugin, pidFile)
	storytest.WriteTree(t, dir, map[string]string{"app.yaml": story, "schemas/x.json": `{"type": "object"}`})
	tr := filepath.Join(dir, "t.jsonl")
	p := startProcess(t, "", bin, "run", dir, "--trace", tr)
	// the sleep has started once host.run is dispatched (harness.called
	// is written earlier, when the walk reaches the invoke)
	p.waitUntil(t, "reached host.run", func() bool {
		b, _ := os.ReadFile(tr)
		for line := range bytes.SplitSeq(b, []byte("\n")) {
			if bytes.Contains(line, []byte(`"kind":"harness.dispatched"`)) && bytes.Contains(line, []byte(`"namespace":"host.run"`)) {
				return true
			}
		}
		return false
	})
	pidB, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatalf("plugin pid: %v", err)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(pidB)))
	if code := p.stop(t, os.Interrupt); code != 1 {
		t.Errorf("exit %d, want 1\n%s", code, p.out.String())
	}
	if !strings.Contains(p.out.String(), "interrupted") {
		t.Errorf("output does not say the run was interrupted:\n%s", p.out.String())
	}
	if !waitFor(func() bool { return syscall.Kill(pid, 0) != nil }, time.Minute) {
		syscall.Kill(pid, syscall.SIGKILL)
		t.Errorf("plugin %d still running after the run ended", pid)
	}
	evs := readTrace(t, tr)
	if countKinds(evs)["machine.error"] != 1 {
		t.Errorf("want one machine.error in the interrupted trace, got %v", countKinds(evs))
	}
}
