package mcpserve

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"kitsoki/internal/testing/storytest"
	"kitsoki/pkg/agent"
)

// TestQueuedRequestsBoundedInBytes: over stdio the requests read and not
// yet answered hold at most Options.MaxQueued bytes; a request past it is
// answered an error at once, and once answers come back the next one of
// the same size is served. Here the server holds 8 KiB and each call
// carries a 5 KiB prompt to a plugin that answers only when released.
func TestQueuedRequestsBoundedInBytes(t *testing.T) {
	arrived, release := make(chan string, 4), make(chan struct{})
	endpoint := storytest.MCPAsk(t, "slow", func(_ *mcp.CallToolRequest, ar agent.AskRequest) (*mcp.CallToolResult, error) {
		arrived <- ar.Prompt[:1]
		<-release
		return &mcp.CallToolResult{StructuredContent: map[string]any{"submission": "ok"}, Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, nil
	})
	released := false
	free := func() {
		if !released {
			released = true
			close(release)
		}
	}
	t.Cleanup(free) // before the plugin's server closes, which waits for its calls
	_, dir := writeStory(t, storyYAML(endpoint))
	s, err := New(Options{StoryPath: dir, MaxQueued: 8 << 10})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cr, sw := io.Pipe()
	sr, cw := io.Pipe()
	ss, err := s.MCP().Connect(ctx, s.StdioTransport(sr, sw), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "v0"}, nil).
		Connect(ctx, &mcp.IOTransport{Reader: cr, Writer: cw}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	type answer struct {
		res *mcp.CallToolResult
		err error
	}
	call := func(letter string) chan answer {
		done := make(chan answer, 1)
		go func() {
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "kitsoki_agent_remote_ask", Arguments: map[string]any{"prompt": strings.Repeat(letter, 5<<10)}})
			done <- answer{res, err}
		}()
		return done
	}
	first := call("a")
	if p := <-arrived; p != "a" {
		t.Fatalf("the plugin got %q first", p)
	}
	select {
	case got := <-call("b"):
		if got.err == nil || !strings.Contains(got.err.Error(), "request refused") || !strings.Contains(got.err.Error(), "8 KiB") {
			t.Errorf("a second 5 KiB call with 5 KiB pending and 8 KiB held at most: %v %v; want it refused naming the bound", got.res, got.err)
		}
	case p := <-arrived:
		t.Errorf("the second call reached the plugin (%q) with the first pending: the queued bytes are not bounded", p)
	}
	free()
	if got := <-first; got.err != nil || got.res.IsError {
		t.Fatalf("the first call: %v %v", got.res, got.err)
	}
	if got := <-call("c"); got.err != nil || got.res.IsError {
		t.Errorf("a call once the first is answered: %v %v", got.res, got.err)
	}
}
