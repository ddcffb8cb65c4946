//go:build unix

package host

import (
	"os"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// alive reports whether pid is a running process (a zombie waiting for
// its reaper counts as gone).
func alive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return runtime.GOOS != "linux"
	}
	_, rest, _ := strings.Cut(string(b), ") ")
	return !strings.HasPrefix(rest, "Z")
}

// bgPid is the first line of stdout, the pid the command's `echo $!` printed.
func bgPid(t *testing.T, d map[string]any) int {
	t.Helper()
	first, _, _ := strings.Cut(d["stdout"].(string), "\n")
	pid, err := strconv.Atoi(first)
	if err != nil {
		t.Fatalf("no pid first in stdout %q", d["stdout"])
	}
	return pid
}

// A command that exits leaving a background process on its output
// (`sleep 1000 &`, not redirected) returns its own output and exit status,
// and the process it left is killed rather than holding the call open (the
// existing engine waits for it) or outliving it.
func TestHostRunBackgroundOnOutputKilled(t *testing.T) {
	for _, tc := range []struct {
		cmd  string
		exit int
	}{
		{"sleep 1000 & echo $!; echo started", 0},
		{"sleep 1000 & echo $!; echo started; exit 3", 3},
	} {
		d := mustOK(t, runH(), Env{WorkDir: t.TempDir()}, map[string]any{"cmd": tc.cmd})
		pid := bgPid(t, d)
		t.Cleanup(func() { syscall.Kill(pid, syscall.SIGKILL) })
		if !strings.HasSuffix(d["stdout"].(string), "\nstarted\n") || d["exit_code"] != tc.exit {
			t.Errorf("%q: %v", tc.cmd, d)
		}
		for deadline := time.Now().Add(time.Minute); alive(pid) && time.Now().Before(deadline); { // a hang guard
			time.Sleep(10 * time.Millisecond)
		}
		if alive(pid) {
			t.Errorf("%q: the background process %d outlived the call", tc.cmd, pid)
		}
	}
}

// A background process that let go of the output (a daemon started with
// its output redirected) keeps running after the call, as the existing
// engine leaves it: a later host.run of the same fixture may use it.
func TestHostRunDetachedDaemonKept(t *testing.T) {
	d := mustOK(t, runH(), Env{WorkDir: t.TempDir()}, map[string]any{"cmd": "nohup sleep 1000 >/dev/null 2>&1 & echo $!"})
	pid := bgPid(t, d)
	t.Cleanup(func() { syscall.Kill(pid, syscall.SIGKILL) })
	if !alive(pid) {
		t.Errorf("the detached daemon %d was killed with the call", pid)
	}
}
