package parked

import (
	"runtime"
	"strings"
	"testing"
	"time"
)

// blocked are the goroutine states of a goroutine waiting on a channel.
var blocked = []string{"select", "chan send", "chan receive"}

// Count is how many goroutines are blocked on a channel operation (a
// select, a send or a receive) with fn in the name of their innermost
// function ("childproc.(*child).read", "agent.detach[").
func Count(fn string) int {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	count := 0
	for g := range strings.SplitSeq(string(buf), "\n\n") {
		head, rest, _ := strings.Cut(g, "\n")
		top, _, _ := strings.Cut(rest, "\n")
		_, state, ok := strings.Cut(head, " [")
		if !ok || !strings.Contains(top, fn) {
			continue
		}
		for _, b := range blocked {
			if strings.HasPrefix(state, b) {
				count++
				break
			}
		}
	}
	return count
}

// Wait returns once a goroutine is blocked on a channel operation in fn
// (see [Count]). A send it is blocked on is ready for a receiver: a select
// that then starts with that receive among its cases finds it ready. It
// fails the test after a minute (a hang guard, not a timing assumption).
func Wait(t testing.TB, fn string) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for Count(fn) == 0 {
		if time.Now().After(deadline) {
			t.Fatalf("waited a minute for a goroutine blocked in %s", fn)
		}
		time.Sleep(100 * time.Microsecond) // polling the condition, not timing it
	}
}
