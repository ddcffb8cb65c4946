//go:build unix

package childproc

import (
	"context"
	"path/filepath"
	"syscall"
	"testing"
)

// A child that crashes leaving a process of another session (setsid, out
// of reach of its group's kill) on its stdout fails the call within the
// exit grace, naming the cause, and the reader lets go of the pipe that
// process still holds.
func TestCrashLeavingADetachedProcessOnItsStdout(t *testing.T) {
	f := newClient(t, "requests", nil)
	file := filepath.Join(t.TempDir(), "gc.pid")
	ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
	defer cancel()
	_, err := call(ctx, f.c, "crash-detached:"+file)
	pid := readPid(t, file)
	t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGKILL) })
	mustFail(t, err, Exited, "test child exited before answering", "outside its process group still holds its stdout", "boom [MASKED]")
	mustCall(t, f.c, "pid")
}
