package parked

import (
	"context"
	"testing"
)

func blockedSend(ch chan int) { ch <- 1 }

// Wait returns once the goroutine is blocked in the named function, and
// Count then sees it; a held Ctx is live, a released one ends when
// asked for Done, after its wait.
func TestWaitAndEnding(t *testing.T) {
	ch := make(chan int)
	go blockedSend(ch)
	Wait(t, "parked.blockedSend")
	if n := Count("parked.blockedSend"); n != 1 {
		t.Fatalf("Count = %d, want 1", n)
	}
	waited := false
	ctx := Ending(func() { waited = true }, context.Canceled).Hold()
	select {
	case <-ctx.Done():
		t.Fatal("a held context ended")
	default:
	}
	if ctx.Err() != nil || waited {
		t.Fatalf("held: Err %v, waited %v", ctx.Err(), waited)
	}
	ctx.Release()
	<-ctx.Done()
	if ctx.Err() != context.Canceled || !waited {
		t.Fatalf("ended: Err %v, waited %v", ctx.Err(), waited)
	}
	<-ch
}
