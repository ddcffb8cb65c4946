package agent

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"kitsoki/internal/testing/parked"
	"kitsoki/pkg/story"
)

// detach's contract, which open and call share: an answer that comes
// before the caller gives up is returned; one that comes after goes to
// late (open closes the session nobody holds); Close waits for every tail
// (under -race, a Close that did not wait is a race on got); after Close
// nothing new is started.
func TestMCPHTTPDetach(t *testing.T) {
	tr := newMCPTransport(t, &story.AgentPlugin{Endpoint: "http://127.0.0.1:1/mcp"}, "")

	v, err := detach(tr, context.Background(), func() (string, error) { return "answer", nil }, func(string, error) {
		t.Error("late called for an answer the caller took")
	})
	if v != "answer" || err != nil {
		t.Fatalf("in time: %q, %v", v, err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	release := make(chan struct{})
	var got string
	lateDone := make(chan struct{})
	cancel()
	v, err = detach(tr, ctx, func() (string, error) {
		<-release
		return "session", nil
	}, func(v string, err error) {
		got = v
		close(lateDone)
	})
	if v != "" || !errors.Is(err, context.Canceled) {
		t.Fatalf("abandoned: %q, %v", v, err)
	}
	close(release)
	if err := tr.Close(); err != nil {
		t.Fatal(err)
	}
	if got != "session" {
		t.Fatalf("late got %q, want the abandoned answer (Close must wait for the tail)", got)
	}
	<-lateDone

	ran := false
	if _, err := detach(tr, context.Background(), func() (string, error) { ran = true; return "", nil }, func(string, error) {}); err == nil || ran {
		t.Fatalf("after Close: ran=%v err=%v", ran, err)
	}
}

// An answer that is there when the caller's context ends is returned, not
// handed to late (the context ends once detach's goroutine waits to
// deliver the answer, so detach's select starts with both ready): with the old random choice between the two ready cases,
// 200 rounds all passing has odds of 2^-200.
func TestMCPHTTPDetachAnswerReadyAtDeadline(t *testing.T) {
	tr := newMCPTransport(t, &story.AgentPlugin{Endpoint: "http://127.0.0.1:1/mcp"}, "")
	for i := range 200 {
		want := fmt.Sprint("answer ", i)
		ctx := parked.Ending(func() { parked.Wait(t, "agent.detach[") }, context.DeadlineExceeded)
		v, err := detach(tr, ctx, func() (string, error) { return want, nil }, func(string, error) {
			t.Errorf("round %d: late called for an answer that was there when the context ended", i)
		})
		if v != want || err != nil {
			t.Fatalf("round %d: %q, %v; want the answer", i, v, err)
		}
	}
}
