//go:build linux

package cmd

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"kitsoki/internal/testing/storytest"
)

// TestSIGKILLLeavesNoChildBehind kills a real `kitsoki run` with SIGKILL
// while a child it started is running — a subprocess agent plugin, an
// external hook process — and checks the child dies with it (the kernel's
// parent-death signal, set for every child by internal/proc).
func TestSIGKILLLeavesNoChildBehind(t *testing.T) {
	bin := buildKitsokiUnlessShort(t)
	for _, tc := range []struct {
		name  string
		files func(pidFile string) map[string]string
	}{
		{"subprocess plugin", func(pidFile string) map[string]string {
			return map[string]string{"story/app.yaml": slowPluginApp(pidThenWait(pidFile))}
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
			storytest.WriteTree(t, root, tc.files(pidFile))
			p := startProcess(t, root, bin, "run", filepath.Join(root, "story"), "--trace", filepath.Join(t.TempDir(), "t.jsonl"))
			pid := p.waitForPID(t, pidFile)
			if !alive(pid) {
				t.Fatalf("child %d not running before the kill", pid)
			}
			p.stop(t, syscall.SIGKILL)
			if !waitFor(func() bool { return !alive(pid) }, time.Minute) {
				syscall.Kill(pid, syscall.SIGKILL)
				t.Fatalf("child %d outlived the SIGKILLed kitsoki", pid)
			}
		})
	}
}

// alive reports whether pid is a live process (a zombie waiting for its
// reaper counts as dead).
// slowPluginApp is a story whose start asks agent.slow, a subprocess
// plugin running the shell command cmd (which writes a pid file and never
// answers); mcp serve offers it as the tool kitsoki_agent_slow_ask.
func slowPluginApp(cmd string) string {
	return fmt.Sprintf(`app: { id: slow, version: 0.1.0 }
agent_plugins:
  agent.slow:
    plugin: subprocess
    command: /bin/sh
    args: ["-c", %q]
root: ask
states:
  ask:
    terminal: true
    on_enter:
      - invoke: host.agent.ask
        agent: agent.slow
        with: { prompt: "hello" }
`, cmd)
}

func alive(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || i+2 >= len(s) || s[i+2] != 'Z'
}
