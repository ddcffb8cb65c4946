package agent

// Test helpers shared by the transport tests (package agent) and the
// conformance suite (package agent_test): they are exported from a _test
// file, so they exist only in test builds.

import (
	"bytes"
	"fmt"
	"kitsoki/internal/testing/storytest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// BuildTestPlugin compiles the Go program internal/testplugins/<name> into
// t.TempDir() with `go build` and returns the executable's path.
func BuildTestPlugin(t testing.TB, name string) string {
	t.Helper()
	goBin, err := exec.LookPath("go")
	if err != nil {
		goBin = "go"
	}
	out := filepath.Join(t.TempDir(), name)
	if runtime.GOOS == "windows" {
		out += ".exe"
	}
	cmd := exec.Command(goBin, "build", "-o", out, "./internal/testplugins/"+name)
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build %s: %v\n%s", name, err, b)
	}
	return out
}

// ChildProcesses lists the live (or unreaped) children of the test process
// as "pid state cmdline". It reads /proc; ok is false where there is none.
func ChildProcesses() (kids []string, ok bool) {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil, false
	}
	me := os.Getpid()
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		state, ppid, ok := procStat(pid)
		if !ok || ppid != me {
			continue
		}
		cl, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
		kids = append(kids, fmt.Sprintf("%d %s %s", pid, state, strings.TrimSpace(string(bytes.ReplaceAll(cl, []byte{0}, []byte{' '})))))
	}
	return kids, true
}

// procStat returns the state letter and parent pid of pid.
func procStat(pid int) (state string, ppid int, ok bool) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return "", 0, false
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return "", 0, false
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 2 {
		return "", 0, false
	}
	ppid, _ = strconv.Atoi(f[1])
	return f[0], ppid, true
}

// ProcessGone reports whether pid no longer runs (absent, or a zombie
// waiting to be reaped by someone else).
func ProcessGone(pid int) bool {
	state, _, ok := procStat(pid)
	return !ok || state == "Z" || state == "X"
}

// CheckNoChildren registers a cleanup that fails the test when a child
// process of the test is still there once the test (and every cleanup
// registered after this call, such as a transport's Close) has finished.
// Call it first in a test.
func CheckNoChildren(t testing.TB) {
	t.Helper()
	if _, ok := ChildProcesses(); !ok {
		return
	}
	t.Cleanup(func() {
		deadline := time.Now().Add(time.Minute) // a hang guard: killed children are reaped at once
		for {
			kids, _ := ChildProcesses()
			if len(kids) == 0 {
				return
			}
			if time.Now().After(deadline) {
				t.Errorf("child processes left running after the test:\n%s", strings.Join(kids, "\n"))
				return
			}
			time.Sleep(20 * time.Millisecond)
		}
	})
}

// WaitForFile waits until path exists (a plugin's marker that it got
// that far), bounded by a hang guard that only a failure reaches.
func WaitForFile(t testing.TB, path string) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		if _, err := os.Stat(path); err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s never appeared", path)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// WaitNoError waits for wg, then closes errs (which the goroutines of wg
// send on) and fails t at the first non-nil error.
func WaitNoError(t testing.TB, wg *sync.WaitGroup, errs chan error) {
	t.Helper()
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
}

// SyncBuffer is a goroutine-safe log or output sink the test reads while
// a transport writes it.
type SyncBuffer = storytest.SyncBuffer
