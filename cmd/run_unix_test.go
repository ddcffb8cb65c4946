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

// interruptSignal is a signal that interrupts a command, the exit status
// it must end on and its name in the command's one line.
type interruptSignal struct {
	sig  os.Signal
	code int
	name string
}

// interruptSignals are Ctrl-C's SIGINT and SIGTERM.
var interruptSignals = []interruptSignal{{os.Interrupt, 130, "Ctrl-C (SIGINT)"}, {syscall.SIGTERM, 143, "SIGTERM"}}

// TestRunInterruptStopsPluginsAndLeavesValidTrace builds the real binary,
// starts a run whose plugin is alive while a host.run sleeps, sends SIGINT
// (then, run again, SIGTERM), and checks: exit 130 (143), a last line
// naming the signal, the plugin process gone, the trace verifies, and
// --save-fixture wrote nothing.
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
	storytest.WriteTree(t, dir, map[string]string{"app.yaml": story, "schemas/x.json": `{"type": "object"}`, "flows/.keep": ""})
	for _, sig := range interruptSignals {
		os.Remove(pidFile)
		tr := filepath.Join(dir, fmt.Sprintf("t%d.jsonl", sig.code))
		p := startProcess(t, "", bin, "run", dir, "--trace", tr, "--force", "--save-fixture", filepath.Join(dir, "flows", "saved.yaml"))
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
		if code := p.stop(t, sig.sig); code != sig.code {
			t.Errorf("%v: exit %d, want %d\n%s", sig.sig, code, sig.code, p.out.String())
		}
		if want := "kitsoki: run interrupted during host.run: interrupted by " + sig.name + "; no fixture saved\n"; !strings.HasSuffix(p.out.String(), want) {
			t.Errorf("output does not end on %q:\n%s", want, p.out.String())
		}
		if !waitFor(func() bool { return syscall.Kill(pid, 0) != nil }, time.Minute) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Errorf("plugin %d still running after the run ended", pid)
		}
		evs := readTrace(t, tr)
		if countKinds(evs)["machine.error"] != 1 {
			t.Errorf("want one machine.error in the interrupted trace, got %v", countKinds(evs))
		}
		if ents, _ := os.ReadDir(filepath.Join(dir, "flows")); len(ents) != 1 {
			t.Errorf("the interrupted run wrote in flows/: %v", ents)
		}
	}
}
