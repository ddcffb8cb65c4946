package proctest

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

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
		state, ppid, ok := stat(pid)
		if !ok || ppid != me {
			continue
		}
		cl, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
		kids = append(kids, fmt.Sprintf("%d %s %s", pid, state, strings.TrimSpace(string(bytes.ReplaceAll(cl, []byte{0}, []byte{' '})))))
	}
	return kids, true
}

// stat returns the state letter and parent pid of pid.
func stat(pid int) (state string, ppid int, ok bool) {
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

// Gone reports whether pid no longer runs (absent, or a zombie waiting to
// be reaped by someone else).
func Gone(pid int) bool {
	state, _, ok := stat(pid)
	return !ok || state == "Z" || state == "X"
}

// WaitGone fails t unless pid is gone, polling the condition (a kill is
// asynchronous for a process kitsoki does not reap itself) under a
// one-minute hang guard that only a failure reaches.
func WaitGone(t testing.TB, pid int) {
	t.Helper()
	Eventually(t, fmt.Sprintf("process %d to be gone", pid), func() bool { return Gone(pid) })
}

// Eventually polls cond until it holds, failing t with what it waited for
// when a one-minute hang guard passes (only a broken run reaches it: a
// slow machine only takes longer).
func Eventually(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("waited a minute for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
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
