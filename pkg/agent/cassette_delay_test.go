package agent_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"kitsoki/internal/testing/parked"
	"kitsoki/pkg/agent"
)

// pastDelay returns once delay has passed since it was called (the
// monotonic clock, so an episode's timer armed before is then due, not
// hoped to be).
func pastDelay(delay time.Duration) {
	for start := time.Now(); time.Since(start) <= delay; {
		time.Sleep(delay)
	}
}

// An episode whose delay has passed when the call's context ends answers
// (the context ends once the delay is due, so the cassette's select starts
// with both ready): with the old random choice between the two ready cases, 200 rounds all
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
		ctx := parked.Ending(func() { pastDelay(time.Millisecond) }, context.DeadlineExceeded)
		r, err := slow.Ask(ctx, &agent.AskRequest{})
		if err != nil || string(r.Submission) != fmt.Sprintf(`{"n": %d}`, i) {
			t.Fatalf("round %d: %v; want episode e%d's answer, due when the context ended", i, err, i)
		}
	}
}
