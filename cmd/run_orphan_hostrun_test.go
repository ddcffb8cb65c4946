//go:build linux

package cmd

import (
	"fmt"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"kitsoki/internal/testing/storytest"
)

// A real kitsoki (run, or test running a host_bindings fixture) SIGKILLed
// while a host.run command or a subprocess plugin is running leaves
// nothing of it behind: not the shell the parent-death signal reaches, nor
// the process the shell started (the grandchild here), which the kernel
// would hand to init and leave running.
func TestSIGKILLLeavesNoGrandchild(t *testing.T) {
	bin := buildKitsokiUnlessShort(t)
	for _, tc := range []struct {
		name string
		args func(root string) []string
	}{
		{"run", func(root string) []string {
			return []string{"run", root, "--intent", "go", "--trace", filepath.Join(root, "t.jsonl")}
		}},
		{"test", func(root string) []string { return []string{"test", root} }},
		{"run, plugin", func(root string) []string {
			return []string{"run", filepath.Join(root, "plugin"), "--trace", filepath.Join(root, "t.jsonl")}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			t.Setenv("TMPDIR", t.TempDir()) // what the SIGKILLed run cannot remove stays with the test
			pidFile := filepath.Join(t.TempDir(), "grandchild.pid")
			storytest.WriteTree(t, root, map[string]string{
				".git/HEAD": "ref: refs/heads/main\n",
				"app.yaml": fmt.Sprintf(`app: { id: orphan, version: 0.1.0 }
hosts: [host.run]
intents:
  go: { description: go }
root: start
states:
  start:
    on:
      go: [ { target: busy } ]
  busy:
    description: running
    on_enter:
      - invoke: host.run
        with: { cmd: "sleep 1000 & echo $! > %s; wait" }
`, pidFile),
				"flows/busy.yaml": "test_kind: flow\ninitial_state: start\nuse_orchestrator: true\nhost_bindings: {anything: host.inbox.add}\nturns:\n  - intent: go\n    expect_state: busy\n",
				"plugin/app.yaml": fmt.Sprintf(`app: { id: orphanplugin }
agent_plugins:
  agent.slow:
    plugin: subprocess
    command: /bin/sh
    args: ["-c", "sleep 1000 & echo $! > %s; wait"]
root: ask
states:
  ask:
    terminal: true
    on_enter:
      - invoke: host.agent.ask
        agent: agent.slow
        with: { prompt: "hello" }
`, pidFile),
			})
			p := startProcess(t, root, bin, tc.args(root)...)
			pid := p.waitForPID(t, pidFile)
			t.Cleanup(func() { syscall.Kill(pid, syscall.SIGKILL) })
			if !alive(pid) {
				t.Fatalf("grandchild %d not running before the kill", pid)
			}
			p.stop(t, syscall.SIGKILL)
			if !waitFor(func() bool { return !alive(pid) }, time.Minute) {
				t.Fatalf("grandchild %d outlived the SIGKILLed kitsoki", pid)
			}
		})
	}
}
