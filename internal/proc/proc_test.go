//go:build unix

package proc

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// groupAlive reports whether a non-zombie process of group pgid exists
// (Linux /proc; elsewhere a kill(-pgid, 0) probe).
func groupAlive(pgid int) bool {
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	if len(stats) == 0 {
		return syscall.Kill(-pgid, 0) == nil
	}
	for _, f := range stats {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		s := string(b)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		fields := strings.Fields(s[i+1:])
		if len(fields) > 3 && fields[0] != "Z" && fields[2] == strconv.Itoa(pgid) {
			return true
		}
	}
	return false
}

// Stop escalates: a child that ignores SIGTERM is killed after the grace,
// and its whole group (a grandchild too) goes with it.
func TestStopEscalatesToKillForTheGroup(t *testing.T) {
	cmd := exec.Command("/bin/sh", "-c", `trap "" TERM; sleep 1000 & echo started; wait`)
	Prepare(cmd)
	if !cmd.SysProcAttr.Setpgid {
		t.Fatal("no process group")
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 8)
	if _, err := out.Read(buf); err != nil { // the grandchild is running
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	Stop(cmd.Process, done, 50*time.Millisecond)
	select {
	case <-done:
	default:
		t.Fatal("Stop returned before the child was reaped")
	}
	// The group has no live member left (zombies awaiting their reaper
	// do not count); the kill was sent, so this only waits for delivery.
	deadline := time.Now().Add(time.Minute)
	for groupAlive(cmd.Process.Pid) {
		if time.Now().After(deadline) {
			t.Fatal("the process group still has live members")
		}
		time.Sleep(time.Millisecond)
	}
	if err := Kill(cmd.Process); err != nil {
		t.Fatalf("Kill of a gone group: %v", err)
	}
}
