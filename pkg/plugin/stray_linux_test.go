//go:build linux

package plugin

import (
	"context"
	"strings"
	"testing"

	"kitsoki/internal/testing/proctest"
)

// A hook process that writes its answer and a second one in one write:
// the second is in the pipe as the first is read, and the next call comes
// at once. It is never that call's reply: the call fails unsent, every
// round (the reader's scheduling decides where the line is when the next
// call starts, and every place must hold).
func TestHookSecondAnswerInTheSameWriteIsNeverTheNextCalls(t *testing.T) {
	proctest.CheckNoChildren(t)
	h := strayHook(t, "twice-at-once")
	for round := range 100 {
		res, err := h.Hook(context.Background(), pointPreDispatch, Payload{"prompt": "x"})
		if err != nil || res.Payload["prompt"] != "first answer" {
			t.Fatalf("round %d, first call: %+v %v", round, res, err)
		}
		res, err = h.Hook(context.Background(), pointPreDispatch, Payload{"prompt": "y"})
		if err == nil || !strings.Contains(err.Error(), "second answer") || !strings.Contains(err.Error(), "while no call was waiting") {
			t.Fatalf("round %d, next call: %+v %v; want it refused unsent, quoting the second answer", round, res, err)
		}
	}
}

// The same for a host provider.
func TestHostProviderSecondAnswerInTheSameWriteIsNeverTheNextCalls(t *testing.T) {
	proctest.CheckNoChildren(t)
	_, call := strayProvider(t)
	for round := range 100 {
		if res, err := call("twice-at-once"); err != nil || res.Data["answer"] != "first" {
			t.Fatalf("round %d, first call: %+v %v", round, res, err)
		}
		if res, err := call(""); err == nil || !strings.Contains(err.Error(), `\"second\"`) {
			t.Fatalf("round %d, next call: %+v %v; want it refused unsent, quoting the second answer", round, res, err)
		}
	}
}
