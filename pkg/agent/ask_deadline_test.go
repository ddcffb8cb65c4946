package agent

import (
	"context"
	"fmt"
	"testing"
	"time"

	"kitsoki/internal/testing/parked"
)

// An answer the transport gave before the call's deadline passed (or the
// run's context ended) is the call's answer, even when the wait sees the
// end first, not a late one that a run ending there leaves unrecorded; one
// it gave after (in reaction to the end) is late. awaitAsk's select starts
// with the answer on ch and the ended context both ready: with a random
// choice between them, 200 rounds all passing has odds of 2^-200.
func TestAskAnswerReadyAtDeadline(t *testing.T) {
	for _, c := range []struct {
		name string
		ctx  func(ended context.Context) context.Context
	}{
		{"the call's deadline", func(context.Context) context.Context { return context.Background() }},
		{"the run ending", func(ended context.Context) context.Context { return ended }},
	} {
		for i := range 200 {
			for _, inTime := range []bool{true, false} {
				want := &AskResponse{Submission: []byte(fmt.Sprintf(`{"round":%d}`, i))}
				ch := make(chan askOutcome, 1)
				ch <- askOutcome{resp: want, inTime: inTime}
				ended := parked.Ending(nil, context.DeadlineExceeded)
				resp, late, err := awaitAsk(c.ctx(ended), ended, ch, "a", time.Second, time.Minute)
				switch {
				case inTime && (err != nil || resp != want || late != nil):
					t.Fatalf("%s, round %d: resp %v, late %v, err %v; want the answer", c.name, i, resp, late, err)
				case !inTime && (KindOf(err) != KindDeadlineExceeded || resp != nil || late != want):
					t.Fatalf("%s, round %d: resp %v, late %v, err %v; want a late answer", c.name, i, resp, late, err)
				}
			}
		}
	}
}
