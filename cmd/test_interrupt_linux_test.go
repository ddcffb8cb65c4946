//go:build linux

package cmd

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
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
	for _, tc := range interruptSignals {
		t.Run(tc.name, func(t *testing.T) {
			root, tmp := t.TempDir(), t.TempDir()
			pidFile := filepath.Join(t.TempDir(), "child.pid")
			writeWaitingFixture(t, root, pidThenWait(pidFile))
			t.Setenv("TMPDIR", tmp) // where the fixture's working directory is made
			report := filepath.Join(root, "report.json")
			p := startProcess(t, root, bin, "test", root, "--json", report)
			pid := p.waitForPID(t, pidFile)
			t.Cleanup(func() { syscall.Kill(pid, syscall.SIGKILL) })
			if ents, _ := filepath.Glob(filepath.Join(tmp, "kitsoki-flow-*")); len(ents) != 2 { // the directory and its lock
				t.Fatalf("want the fixture's kitsoki-flow-* directory and its lock in TMPDIR while it runs, got %v", ents)
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

// writeWaitingFixture writes in root a story whose one flow fixture (and
// whose run with --intent go) runs, through host_bindings, a real
// host.run of the shell command cmd, which writes a pid file and waits.
func writeWaitingFixture(t *testing.T, root, cmd string) {
	t.Helper()
	storytest.WriteTree(t, root, map[string]string{
		".git/HEAD": "ref: refs/heads/main\n",
		"app.yaml": fmt.Sprintf(`app: { id: waiting, version: 0.1.0 }
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
        with: { cmd: %q }
`, cmd),
		"flows/busy.yaml": "test_kind: flow\ninitial_state: start\nuse_orchestrator: true\nhost_bindings: {anything: host.inbox.add}\nturns:\n  - intent: go\n    expect_state: busy\n",
	})
}

// pidThenWait is a shell command that writes its pid to pidFile and waits.
func pidThenWait(pidFile string) string {
	return fmt.Sprintf("echo $$ > '%s'; exec sleep 1000", pidFile)
}

// TestTestSweepsWhatAKilledRunLeft SIGKILLs a real kitsoki test while its
// fixture's host.run waits: nothing can remove the fixture's working
// directory then. The next kitsoki test removes it (its process is gone,
// so the lock beside it is free), and leaves alone a directory of a run
// still going.
func TestTestSweepsWhatAKilledRunLeft(t *testing.T) {
	bin := buildKitsokiUnlessShort(t)
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	killedRoot, liveRoot := t.TempDir(), t.TempDir()
	killedPID, livePID := filepath.Join(t.TempDir(), "killed.pid"), filepath.Join(t.TempDir(), "live.pid")
	writeWaitingFixture(t, killedRoot, pidThenWait(killedPID))
	writeWaitingFixture(t, liveRoot, pidThenWait(livePID))

	killed := startProcess(t, killedRoot, bin, "test", killedRoot)
	pid := killed.waitForPID(t, killedPID)
	t.Cleanup(func() { syscall.Kill(pid, syscall.SIGKILL) })
	left, _ := filepath.Glob(filepath.Join(tmp, "kitsoki-flow-*"))
	killed.stop(t, syscall.SIGKILL)
	if len(left) != 2 { // the directory and its lock
		t.Fatalf("want the killed run's directory and its lock in TMPDIR, got %v", left)
	}
	live := startProcess(t, liveRoot, bin, "test", liveRoot)
	livePid := live.waitForPID(t, livePID)
	t.Cleanup(func() { syscall.Kill(livePid, syscall.SIGKILL) })
	// a lock file is swept only once it is a minute old (a live run
	// locks it a moment after making it): age them all
	all, _ := filepath.Glob(filepath.Join(tmp, "kitsoki-flow-*"))
	old := time.Now().Add(-2 * time.Minute)
	for _, p := range all {
		os.Chtimes(p, old, old)
	}

	quiet := t.TempDir()
	storytest.WriteTree(t, quiet, map[string]string{"app.yaml": "app: { id: quiet }\nroot: s\nstates:\n  s: { terminal: true }\n"})
	if out, err := exec.Command(bin, "test", quiet).CombinedOutput(); err != nil {
		t.Fatalf("kitsoki test on a story without fixtures: %v\n%s", err, out)
	}
	for _, p := range left {
		if _, err := os.Lstat(p); err == nil {
			t.Errorf("%s, left by the killed run, not swept", p)
		}
	}
	now, _ := filepath.Glob(filepath.Join(tmp, "kitsoki-flow-*"))
	if len(now) != 2 {
		t.Errorf("want the live run's directory and lock kept, TMPDIR holds %v", now)
	}
	if code := live.stop(t, os.Interrupt); code != 130 {
		t.Errorf("live run: exit %d, want 130\n%s", code, live.out.String())
	}
	if ents, _ := os.ReadDir(tmp); len(ents) != 0 {
		t.Errorf("left in TMPDIR after both runs: %v", ents)
	}
}
