package agent_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"kitsoki/pkg/agent"
)

// pastDelayCtx ends once asked for its Done channel, which it hands out
// only after delay has passed since it was asked (the monotonic clock, so
// an episode's timer armed before is then due, not hoped to be): the
// cassette's select starts with the episode's answer and the end both
// ready.
type pastDelayCtx struct {
	context.Context
	delay time.Duration
	ended atomic.Bool
}

func (c *pastDelayCtx) Done() <-chan struct{} {
	for start := time.Now(); time.Since(start) <= c.delay; {
		time.Sleep(c.delay)
	}
	c.ended.Store(true)
	done := make(chan struct{})
	close(done)
	return done
}

func (c *pastDelayCtx) Err() error {
	if c.ended.Load() {
		return context.DeadlineExceeded
	}
	return nil
}

// An episode whose delay has passed when the call's context ends answers:
// with the old random choice between the two ready cases, 200 rounds all
// passing has odds of 2^-200.
func TestCassetteDelayDueAtDeadlineAnswers(t *testing.T) {
	const rounds = 200
	var b strings.Builder
	b.WriteString("kind: host_cassette\nepisodes:\n")
	for i := range rounds {
		fmt.Fprintf(&b, "  - {id: e%d, match: {handler: agent.slow}, delay: 1ms, agent: {response: '{\"n\": %d}'}}\n", i, i)
	}
	p := filepath.Join(t.TempDir(), "c.yaml")
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	cas, err := agent.LoadCassette(p)
	if err != nil {
		t.Fatal(err)
	}
	slow := cas.For("agent.slow")
	for i := range rounds {
		r, err := slow.Ask(&pastDelayCtx{Context: context.Background(), delay: time.Millisecond}, &agent.AskRequest{})
		if err != nil || string(r.Submission) != fmt.Sprintf(`{"n": %d}`, i) {
			t.Fatalf("round %d: %v; want episode e%d's answer, due when the context ended", i, err, i)
		}
	}
}
