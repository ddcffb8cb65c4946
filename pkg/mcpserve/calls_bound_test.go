package mcpserve

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"kitsoki/internal/testing/storytest"
	"kitsoki/pkg/agent"
)

// blockingUpstream answers "ask" only once release is closed, counting
// the calls it holds and the most it held at once.
type blockingUpstream struct {
	release        chan struct{}
	inflight, peak atomic.Int64
}

func (b *blockingUpstream) serve(t *testing.T) string {
	return storytest.MCPAsk(t, "upstream", func(req *mcp.CallToolRequest, ar agent.AskRequest) (*mcp.CallToolResult, error) {
		n := b.inflight.Add(1)
		for p := b.peak.Load(); n > p && !b.peak.CompareAndSwap(p, n); p = b.peak.Load() {
		}
		defer b.inflight.Add(-1)
		<-b.release
		return &mcp.CallToolResult{StructuredContent: map[string]any{"submission": "echo: " + ar.Prompt}, Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, nil
	})
}

// waitUntil polls cond (a bound on a broken run, not a timing assumption).
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("never %s", what)
		}
		time.Sleep(time.Millisecond) // poll interval
	}
}

// An MCP client (an LLM agent steered by hostile content) that fires many
// calls at once gets at most MaxCalls dispatched together (each may start
// a plugin process or spend tokens); the rest wait for a slot, a waiting
// call the client cancels ends at once with an error, and the others all
// complete once the running ones do.
func TestConcurrentCallsAreBounded(t *testing.T) {
	up := &blockingUpstream{release: make(chan struct{})}
	_, dir := writeStory(t, storyYAML(up.serve(t)))
	const limit, total = 3, 10
	s, err := New(Options{StoryPath: dir, MaxCalls: limit})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	cs := connectPipe(t, s, nil)

	var wg sync.WaitGroup
	errs := make(chan error, total)
	call := func(ctx context.Context) {
		defer wg.Done()
		r, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "kitsoki_agent_remote_ask", Arguments: map[string]any{"prompt": "hi"}})
		if err == nil && r.IsError {
			err = errText(r)
		}
		errs <- err
	}
	for range total - 1 {
		wg.Add(1)
		go call(context.Background())
	}
	waitUntil(t, "filled every call slot with the rest waiting", func() bool {
		return up.inflight.Load() == limit && s.waiting.Load() == total-1-limit
	})
	// one more call, cancelled by its client while it waits for a slot
	ctx, cancel := context.WithCancel(context.Background())
	wg.Add(1)
	cancelled := make(chan error, 1)
	go func() {
		defer wg.Done()
		_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "kitsoki_agent_remote_ask", Arguments: map[string]any{"prompt": "late"}})
		cancelled <- err
	}()
	waitUntil(t, "queued the late call", func() bool { return s.waiting.Load() == total-limit })
	cancel()
	if err := <-cancelled; err == nil {
		t.Error("the cancelled call succeeded")
	}
	waitUntil(t, "dropped the cancelled call from the queue", func() bool { return s.waiting.Load() == total-1-limit })
	close(up.release)
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Errorf("a call failed: %v", err)
		}
	}
	if p := up.peak.Load(); p != limit {
		t.Errorf("%d calls reached the plugin at once, want at most %d", p, limit)
	}
}

type toolErr string

func (e toolErr) Error() string { return string(e) }

func errText(r *mcp.CallToolResult) error {
	for _, c := range r.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			return toolErr(tc.Text)
		}
	}
	return toolErr("tool error")
}

// A running call its client cancels gives its slot back at once, even
// while the plugin behind it has not answered: the next call runs.
func TestCancelledRunningCallFreesItsSlot(t *testing.T) {
	up := &blockingUpstream{release: make(chan struct{})}
	_, dir := writeStory(t, storyYAML(up.serve(t)))
	s, err := New(Options{StoryPath: dir, MaxCalls: 1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	defer close(up.release)
	cs := connectPipe(t, s, nil)
	args := &mcp.CallToolParams{Name: "kitsoki_agent_remote_ask", Arguments: map[string]any{"prompt": "hi"}}

	ctx, cancel := context.WithCancel(context.Background())
	first := make(chan error, 1)
	go func() { _, err := cs.CallTool(ctx, args); first <- err }()
	waitUntil(t, "started the first call", func() bool { return up.inflight.Load() == 1 })
	second := make(chan error, 1)
	go func() {
		r, err := cs.CallTool(context.Background(), args)
		if err == nil && r.IsError {
			err = errText(r)
		}
		second <- err
	}()
	waitUntil(t, "queued the second call", func() bool { return s.waiting.Load() == 1 })
	cancel()
	if err := <-first; err == nil {
		t.Error("the cancelled call succeeded")
	}
	// the first call's upstream handler still blocks: the second reaching
	// it means the slot came back on the cancel
	waitUntil(t, "ran the second call", func() bool { return up.inflight.Load() == 2 && s.waiting.Load() == 0 })
}
