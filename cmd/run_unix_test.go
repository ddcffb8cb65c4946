//go:build unix

package cmd

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestRunInterruptStopsPluginsAndLeavesValidTrace builds the real binary,
// starts a run whose plugin is alive while a host.run sleeps, sends SIGINT,
// and checks: exit 1, the plugin process is gone, the trace verifies.
func TestRunInterruptStopsPluginsAndLeavesValidTrace(t *testing.T) {
	needGo(t)
	dir := t.TempDir()
	bin := filepath.Join(dir, "kitsoki")
	build := exec.Command("go", "build", "-o", bin, "kitsoki")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	plugin := filepath.Join(dir, "triage-agent")
	if out, err := exec.Command("go", "build", "-o", plugin, "kitsoki/examples/plugins/triage-agent").CombinedOutput(); err != nil {
		t.Fatalf("go build plugin: %v\n%s", err, out)
	}
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
        with: { prompt: "sev 2 service=db" }
        bind: { x: submitted }
      - invoke: host.run
        with: { cmd: "sleep 60" }
    terminal: true
`, plugin, pidFile)
	os.WriteFile(filepath.Join(dir, "app.yaml"), []byte(story), 0o644)
	tr := filepath.Join(dir, "t.jsonl")
	cmd := exec.Command(bin, "run", dir, "--trace", tr)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// wait until the sleep has started (harness.called for host.run is in the trace)
	deadline := time.Now().Add(60 * time.Second)
	for {
		b, _ := os.ReadFile(tr)
		if bytes.Contains(b, []byte(`"namespace":"host.run"`)) {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("run never reached host.run:\n%s", out.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	pidB, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatalf("plugin pid: %v", err)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(pidB)))
	cmd.Process.Signal(os.Interrupt)
	waitErr := make(chan error, 1)
	go func() { waitErr <- cmd.Wait() }()
	select {
	case err := <-waitErr:
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 1 {
			t.Errorf("exit %v, want status 1\n%s", err, out.String())
		}
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		t.Fatal("kitsoki did not stop after SIGINT")
	}
	if !strings.Contains(out.String(), "interrupted") {
		t.Errorf("output does not say the run was interrupted:\n%s", out.String())
	}
	for i := 0; ; i++ {
		if syscall.Kill(pid, 0) != nil {
			break
		}
		if i == 100 {
			t.Errorf("plugin %d still running after the run ended", pid)
			syscall.Kill(pid, syscall.SIGKILL)
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	evs := readTrace(t, tr)
	if countKinds(evs)["machine.error"] != 1 {
		t.Errorf("want one machine.error in the interrupted trace, got %v", countKinds(evs))
	}
}
