//go:build unix

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

// TestTestInterruptLeavesNothing runs the real binary's kitsoki test on a
// host_bindings fixture whose host.run waits, sends SIGINT (then, in a
// second run, SIGTERM) once the command has started, and checks: exit 130
// (143), one line saying what was interrupted, the fixture's kitsoki-flow-*
// working directory removed, the command's process gone, no --json report.
func TestTestInterruptLeavesNothing(t *testing.T) {
	bin := buildKitsokiUnlessShort(t)
	for _, tc := range []struct {
		sig  os.Signal
		code int
		name string
	}{{os.Interrupt, 130, "Ctrl-C (SIGINT)"}, {syscall.SIGTERM, 143, "SIGTERM"}} {
		t.Run(tc.name, func(t *testing.T) {
			root, tmp := t.TempDir(), t.TempDir()
			pidFile := filepath.Join(t.TempDir(), "child.pid")
			storytest.WriteTree(t, root, map[string]string{
				".git/HEAD": "ref: refs/heads/main\n",
				"app.yaml": fmt.Sprintf(`app: { id: interrupted, version: 0.1.0 }
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
        with: { cmd: "echo $$ > '%s'; exec sleep 1000" }
`, pidFile),
				"flows/busy.yaml": "test_kind: flow\ninitial_state: start\nuse_orchestrator: true\nhost_bindings: {anything: host.inbox.add}\nturns:\n  - intent: go\n    expect_state: busy\n",
			})
			t.Setenv("TMPDIR", tmp) // where the fixture's working directory is made
			report := filepath.Join(root, "report.json")
			p := startProcess(t, root, bin, "test", root, "--json", report)
			pid := p.waitForPID(t, pidFile)
			t.Cleanup(func() { syscall.Kill(pid, syscall.SIGKILL) })
			if ents, _ := os.ReadDir(tmp); len(ents) != 1 || !strings.HasPrefix(ents[0].Name(), "kitsoki-flow-") {
				t.Fatalf("want the fixture's kitsoki-flow-* directory in TMPDIR while it runs, got %v", ents)
			}
			code := p.stop(t, tc.sig)
			want := "kitsoki: test interrupted by " + tc.name + ": 1 of 1 flow fixture(s) started, none reported; no report or fixture written\n"
			if code != tc.code || p.out.String() != want {
				t.Errorf("exit %d, want %d; output:\n%q\nwant:\n%q", code, tc.code, p.out.String(), want)
			}
			if ents, _ := os.ReadDir(tmp); len(ents) != 0 {
				t.Errorf("left in TMPDIR: %v", ents)
			}
			if _, err := os.Stat(report); err == nil {
				t.Errorf("--json report written by an interrupted run")
			}
			if !waitFor(func() bool { return !alive(pid) }, time.Minute) {
				t.Errorf("host.run's process %d outlived the interrupted kitsoki test", pid)
			}
		})
	}
}
