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
			grandchild := fmt.Sprintf("sleep 1000 & echo $! > '%s'; wait", pidFile)
			writeWaitingFixture(t, root, grandchild)
			storytest.WriteTree(t, root, map[string]string{"plugin/app.yaml": slowPluginApp(grandchild)})
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
