//go:build unix

package cmd

import (
	"bytes"
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

// TestEvalRunInterruptWritesNothing builds the real binary and the eval
// test plugin, starts eval run against a plugin that never answers, sends
// SIGINT once the plugin is up, and checks: exit 2, no report file (not
// even a temporary one), and the plugin process is gone.
func TestEvalRunInterruptWritesNothing(t *testing.T) {
	needGo(t)
	dir := t.TempDir()
	bin := filepath.Join(dir, "kitsoki")
	if out, err := exec.Command("go", "build", "-o", bin, "kitsoki").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	plugin := filepath.Join(dir, "evalplugin")
	if out, err := exec.Command("go", "build", "-o", plugin, "kitsoki/pkg/eval/internal/evalplugin").CombinedOutput(); err != nil {
		t.Fatalf("go build plugin: %v\n%s", err, out)
	}
	pidFile := filepath.Join(dir, "plugin.pid")
	story := fmt.Sprintf(`app: {id: evint, version: 0.1.0}
agent_plugins:
  agent.plug:
    plugin: subprocess
    command: %q
    env: {EVAL_PIDFILE: %q}
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
        with: {prompt: "pick", args: {}}
        bind: {out: submitted}
    terminal: true
`, plugin, pidFile)
	ds := "kind: agent_eval\napp: ../app.yaml\ncall: pick\nmatrix: {profiles: [plug], models: {plug: [hang]}}\ncomparator: exact\nexamples: [{name: a, expect: {x: 1}}]\n"
	os.MkdirAll(filepath.Join(dir, "evals"), 0o755)
	os.WriteFile(filepath.Join(dir, "app.yaml"), []byte(story), 0o644)
	os.WriteFile(filepath.Join(dir, "evals", "pick.yaml"), []byte(ds), 0o644)
	cmd := exec.Command(bin, "eval", "run", filepath.Join(dir, "evals", "pick.yaml"))
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var pid int
	deadline := time.Now().Add(60 * time.Second)
	for pid == 0 {
		if b, err := os.ReadFile(pidFile); err == nil && len(b) > 0 {
			pid, _ = strconv.Atoi(strings.TrimSpace(string(b)))
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("plugin never started:\n%s", out.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	time.Sleep(100 * time.Millisecond) // let the call reach the plugin
	cmd.Process.Signal(os.Interrupt)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		<-done
		t.Fatalf("eval run did not stop on SIGINT:\n%s", out.String())
	}
	if code := cmd.ProcessState.ExitCode(); code != 2 || !strings.Contains(out.String(), "interrupted: no report written") {
		t.Errorf("exit %d:\n%s", code, out.String())
	}
	if ents, err := os.ReadDir(filepath.Join(dir, "evals", "reports")); err == nil {
		t.Errorf("reports dir exists after interrupt: %v", ents)
	}
	gone := false
	for i := 0; i < 100 && !gone; i++ {
		gone = syscall.Kill(pid, 0) != nil
		time.Sleep(20 * time.Millisecond)
	}
	if !gone {
		syscall.Kill(pid, syscall.SIGKILL)
		t.Errorf("plugin %d still running after eval run exited", pid)
	}
}
