//go:build linux

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

// TestSIGKILLLeavesNoChildBehind kills a real `kitsoki run` with SIGKILL
// while a child it started is running — a subprocess agent plugin, an
// external hook process — and checks the child dies with it (the kernel's
// parent-death signal, set for every child by internal/proc).
func TestSIGKILLLeavesNoChildBehind(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the kitsoki binary")
	}
	bin := buildKitsoki(t)
	for _, tc := range []struct {
		name  string
		files func(pidFile string) map[string]string
	}{
		{"subprocess plugin", func(pidFile string) map[string]string {
			return map[string]string{"story/app.yaml": fmt.Sprintf(`app: { id: orphan }
agent_plugins:
  agent.slow:
    plugin: subprocess
    command: /bin/sh
    args: ["-c", "echo $$ > %s; exec sleep 1000"]
root: ask
states:
  ask:
    terminal: true
    on_enter:
      - invoke: host.agent.ask
        agent: agent.slow
        with: { prompt: "hello" }
`, pidFile)}
		}},
		{"hook process", func(pidFile string) map[string]string {
			return map[string]string{
				"story/app.yaml": "app: { id: orphan }\nroot: s\nstates:\n  s:\n    terminal: true\n",
				".kitsoki/plugins/slowhook/manifest.yaml": fmt.Sprintf(`id: slowhook
version: 1.0.0
summary: never answers
hooks:
  - point: run/start
entry:
  command: /bin/sh
  args: ["-c", "echo $$ > %s; exec sleep 1000"]
  timeout_ms: 600000
`, pidFile),
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			pidFile := filepath.Join(t.TempDir(), "child.pid")
			writeTree(t, root, tc.files(pidFile))
			run := exec.Command(bin, "run", filepath.Join(root, "story"), "--trace", filepath.Join(t.TempDir(), "t.jsonl"))
			run.Dir = root
			var out bytes.Buffer
			run.Stdout, run.Stderr = &out, &out
			if err := run.Start(); err != nil {
				t.Fatal(err)
			}
			exited := make(chan struct{})
			go func() { _ = run.Wait(); close(exited) }()
			defer func() { run.Process.Kill(); <-exited }()
			pid := waitForPID(t, pidFile, exited, &out)
			if !alive(pid) {
				t.Fatalf("child %d not running before the kill", pid)
			}
			if err := run.Process.Signal(syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			<-exited
			if !waitFor(func() bool { return !alive(pid) }, time.Minute) {
				syscall.Kill(pid, syscall.SIGKILL)
				t.Fatalf("child %d outlived the SIGKILLed kitsoki", pid)
			}
		})
	}
}

// waitForPID polls until the child wrote its pid (bounded: a broken run
// fails the test instead of hanging it).
func waitForPID(t *testing.T, path string, exited <-chan struct{}, out *bytes.Buffer) int {
	t.Helper()
	var pid int
	if !waitFor(func() bool {
		select {
		case <-exited:
			t.Fatalf("kitsoki exited before its child started:\n%s", out.String())
		default:
		}
		b, err := os.ReadFile(path)
		if err != nil || !strings.HasSuffix(string(b), "\n") {
			return false
		}
		pid, err = strconv.Atoi(strings.TrimSpace(string(b)))
		return err == nil && pid > 0
	}, 2*time.Minute) {
		t.Fatal("the child never started")
	}
	return pid
}

// alive reports whether pid is a live process (a zombie waiting for its
// reaper counts as dead).
func alive(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || i+2 >= len(s) || s[i+2] != 'Z'
}

// waitFor polls cond until it holds or the bound passes.
func waitFor(cond func() bool, within time.Duration) bool {
	deadline := time.Now().Add(within)
	for time.Now().Before(deadline) {
		if cond() {
			return true
		}
		time.Sleep(2 * time.Millisecond) // poll interval, not a wait for an outcome
	}
	return cond()
}
