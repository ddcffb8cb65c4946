package childproc

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"kitsoki/internal/testing/parked"
)

// readerFn names the goroutine that holds a line the child wrote until a
// call takes it.
const readerFn = "childproc.(*child).read"

// rounds is how often each race is set up: with the old random choice
// between two ready cases, all of them passing has odds of 2^-200.
const rounds = 200

// An answer the child already wrote when the call's timeout fires is the
// call's answer: After hands the call its timer only once the answer line
// waits in the reader, so the call's select starts with both ready.
func TestAnswerReadyAtTimeoutIsTaken(t *testing.T) {
	f := newClient(t, "requests", func(c *Config) {
		c.Timeout = time.Hour
		c.After = func(time.Duration) <-chan time.Time {
			parked.Wait(t, readerFn)
			fired := make(chan time.Time, 1)
			fired <- time.Now()
			return fired
		}
	})
	pid := 0
	for i := range rounds {
		req := fmt.Sprint("answer ", i)
		got, err := call(context.Background(), f.c, req)
		if err != nil || got != req {
			t.Fatalf("round %d: got %q, %v; want the answer the child wrote before the timeout fired", i, got, err)
		}
		if i == 0 {
			pid = f.c.pid()
		} else if f.c.pid() != pid {
			t.Fatalf("round %d: the child was replaced after an answer in time", i)
		}
	}
}

// The same when the caller's context ends as the answer arrives: the
// context is held until After (its own channel never fires) releases it,
// and then ends once the answer waits, so the call's select starts with
// the answer and the context's end both ready.
func TestAnswerReadyAtCancelIsTaken(t *testing.T) {
	var ctx atomic.Pointer[parked.Ctx]
	f := newClient(t, "requests", func(c *Config) {
		c.Timeout = time.Hour
		c.After = func(time.Duration) <-chan time.Time {
			ctx.Load().Release()
			return nil
		}
	})
	for i := range rounds {
		ctx.Store(parked.Ending(func() { parked.Wait(t, readerFn) }, context.Canceled).Hold())
		req := fmt.Sprint("answer ", i)
		got, err := call(ctx.Load(), f.c, req)
		if err != nil || got != req {
			t.Fatalf("round %d: got %q, %v; want the answer the child wrote before the context ended", i, got, err)
		}
	}
}
