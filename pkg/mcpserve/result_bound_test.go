package mcpserve

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestResultPastWhatAClientReadsIsAToolError: an agent's answer whose
// result passes what the client reads as one message (the SDK client
// ends its session on a longer line, failing every call in flight) is a
// tool error saying so, and the session goes on. Here the client reads
// 64 KiB lines and the server sends results up to 60 KiB.
func TestResultPastWhatAClientReadsIsAToolError(t *testing.T) {
	_, dir := writeStory(t, storyYAML(upstream(t)))
	s, err := New(Options{StoryPath: dir, MaxResult: 60 << 10})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cr, sw := io.Pipe()
	sr, cw := io.Pipe()
	ss, err := s.MCP().Connect(ctx, &mcp.IOTransport{Reader: sr, Writer: sw}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "v0"}, nil).
		Connect(ctx, &mcp.IOTransport{Reader: cr, Writer: cw, MaxLineLength: 64 << 10}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	call := func(prompt string) (*mcp.CallToolResult, string) {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "kitsoki_agent_remote_ask", Arguments: map[string]any{"prompt": prompt}})
		if err != nil {
			t.Fatalf("a call of %d bytes: %v", len(prompt), err)
		}
		text := ""
		for _, c := range res.Content {
			if tc, ok := c.(*mcp.TextContent); ok {
				text += tc.Text
			}
		}
		return res, text
	}
	// the answer echoes the prompt
	if res, text := call(strings.Repeat("a", 70<<10)); !res.IsError || !strings.Contains(text, "an MCP client reads as one message") {
		t.Errorf("a 70 KiB result: error %v, %.300q; want the tool error", res.IsError, text)
	}
	if res, text := call("small"); res.IsError || !strings.Contains(text, "echo: small") {
		t.Errorf("the next call: error %v, %q", res.IsError, text)
	}
}
