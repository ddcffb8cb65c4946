//go:build linux

package childproc

import (
	"context"
	"testing"
	"time"
)

// A child that writes a second answer in the same write as the first: the
// second is in the pipe (or the reader's buffer) when the first is taken,
// and the next call comes at once. It must reach Config.Stray before the
// next request is encoded, never be that call's answer. Many rounds: the
// reader goroutine's scheduling decides where the line is when the next
// call starts, and every place must hold.
func TestSecondAnswerInTheSameWriteIsStrayBeforeTheNextRequest(t *testing.T) {
	var strays []string
	f := newClient(t, "requests", func(c *Config) { c.Stray = func(line []byte) { strays = append(strays, string(line)) } })
	for round := range 200 {
		strays = nil
		if got := mustCall(t, f.c, "twice-at-once"); got != "first" {
			t.Fatalf("round %d: answer %q, want first", round, got)
		}
		var got string
		err := f.c.Call(context.Background(), Request{
			Encode: func() ([]byte, error) {
				if len(strays) != 1 || strays[0] != "second" {
					t.Errorf("round %d: strays %q when the next request was encoded; want [second]", round, strays)
				}
				return []byte("next"), nil
			},
			Decode: func(line []byte) error { got = string(line); return nil },
		})
		if err != nil || got != "next" {
			t.Fatalf("round %d: the next call got %q, %v; want its own answer", round, got, err)
		}
		if t.Failed() {
			return
		}
	}
}

// A child that starts another line after its answer, unasked: the next
// call is not sent (its answer would be glued to that line) and the child
// is replaced; the call after is served.
func TestUnaskedPartialLineFailsTheNextCallUnsent(t *testing.T) {
	f := newClient(t, "requests", func(c *Config) { c.Stray = func([]byte) {} })
	pid := mustCall(t, f.c, "pid")
	if got := mustCall(t, f.c, "half-after"); got != "first" {
		t.Fatalf("answer %q, want first", got)
	}
	sent := false
	err := f.c.Call(context.Background(), Request{
		Encode: func() ([]byte, error) { sent = true; return []byte("next"), nil },
		Decode: func([]byte) error { return nil },
	})
	mustFail(t, err, Protocol, "test child", "while no call was waiting", "was not sent")
	if sent {
		t.Fatal("the request was encoded and sent after an unasked partial line")
	}
	if again := mustCall(t, f.c, "pid"); again == pid {
		t.Fatalf("the child was kept: %s", again)
	}
}

// A child that never stops writing after its answer cannot hold the next
// call at the barrier: only what it wrote before the call started is
// stray, and the call goes on (here its decoder takes the next line).
func TestEndlessOutputDoesNotHoldTheBarrier(t *testing.T) {
	f := newClient(t, "requests", func(c *Config) { c.Stray = func([]byte) {} })
	if got := mustCall(t, f.c, "flood"); got != "first" {
		t.Fatalf("answer %q, want first", got)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute) // a hang guard only a failure reaches
	defer cancel()
	got, err := call(ctx, f.c, "next")
	if err != nil || got != "more" {
		t.Fatalf("the next call: %q, %v; want the flood's next line, taken as its answer", got, err)
	}
}
