package childproc

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"kitsoki/internal/testing/proctest"
)

// hangGuard bounds a call that, before the fix, waited for its timeout:
// only a failing run reaches it.
const hangGuard = 45 * time.Second

// readPid reads the pid a child role wrote to file.
func readPid(t *testing.T, file string) int {
	t.Helper()
	proctest.Eventually(t, file+" to hold a pid", func() bool {
		b, err := os.ReadFile(file)
		return err == nil && len(b) > 0
	})
	b, _ := os.ReadFile(file)
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	return pid
}

// A child that crashes before answering while a process it started still
// holds its stdout fails the call at once with its exit status and stderr
// (the process in its group is killed), not after the call's timeout as a
// deadline (before the fix the call waited for the timeout: a plugin
// wrapper that crashed leaving a daemon behind cost every call 10 minutes).
func TestCrashLeavingAProcessOnItsStdout(t *testing.T) {
	f := newClient(t, "requests", nil)
	file := filepath.Join(t.TempDir(), "gc.pid")
	ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
	defer cancel()
	_, err := call(ctx, f.c, "crash-holding:"+file)
	mustFail(t, err, Exited, "test child exited before answering", "exit status 3", "boom [MASKED]")
	proctest.WaitGone(t, readPid(t, file))
	mustCall(t, f.c, "pid")
}

// A child that closes its stdin without reading its request, then answers
// and exits, has answered: the failed write of the request does not win
// over the answer (before the fix it did, as "could not be sent the
// request (… broken pipe)"). The grace for its answer is the hang guard,
// so a loaded machine that runs the child late cannot fail the test.
func TestAnswerWithoutReadingThenExitIsKept(t *testing.T) {
	f := newClient(t, "ignore-stdin-exit", func(c *Config) { c.ExitGrace = hangGuard })
	req := strings.Repeat("r", 1<<20)
	for i := range 5 {
		got, err := call(context.Background(), f.c, req)
		if err != nil || got != "early" {
			t.Fatalf("call %d: answer %q, error %v", i, got, err)
		}
		waitNoChild(t, f.c) // the next call is not written to a child on its way out
	}
}

// A child that answered a call and then exits cleanly without answering
// the next, as a program that serves one request and exits does, gets an
// error that says so and names the fix (a one-shot plugin's next call
// fails or not depending on whether its exit was seen first).
func TestCleanExitAfterAnAnswerNamesTheFix(t *testing.T) {
	f := newClient(t, "requests", nil)
	mustCall(t, f.c, "pid")
	_, err := call(context.Background(), f.c, "quit")
	mustFail(t, err, Exited, "test child exited before answering", "exit status 0", "keep reading requests, one per line, until stdin closes")
	// A child that never answered and exits 0 gets no such hint.
	_, err = call(context.Background(), f.c, "quit")
	if e := mustFail(t, err, Exited, "exited before answering"); strings.Contains(e.Error(), "keep reading") {
		t.Fatalf("hint without an earlier answer: %v", e)
	}
}
