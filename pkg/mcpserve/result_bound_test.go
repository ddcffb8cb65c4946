package mcpserve

import (
	"context"
	"encoding/json"
	"io"
	"runtime"
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

// TestResultUnderTheLimitIsNotEncoded: a large answer whose result is
// bounded under the limit is passed on without encoding it (the SDK
// encodes it to send it; each encoding of a large answer allocates
// several times its size), and the bound is never below the encoding.
func TestResultUnderTheLimitIsNotEncoded(t *testing.T) {
	results := []*mcp.CallToolResult{
		{Content: []mcp.Content{&mcp.TextContent{Text: `"a <b> & \"c\"\n` + "\u2028\xff"}}, Meta: mcp.Meta{"kitsoki/call_id": "x", "kitsoki/revision": uint64(3)}},
		{Content: []mcp.Content{&mcp.TextContent{Text: `{"k":[1,2.5]}`}}, StructuredContent: map[string]any{"k\n": []any{1, 2.5, nil, true, "<"}}},
		{Content: []mcp.Content{&mcp.TextContent{Text: "a"}, &mcp.TextContent{Text: ""}}, StructuredContent: []any{}},
	}
	for _, r := range results {
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		if got := textBound(r); got < len(b) {
			t.Errorf("textBound = %d, under the %d bytes of %s", got, len(b), b)
		}
	}
	text := strings.Repeat("a line of prose\n", 1<<20/16)
	out := &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}, StructuredContent: text}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	got := boundResult("kitsoki_s_ask", out, len(text), DefaultMaxResult)
	runtime.ReadMemStats(&after)
	if got != out {
		t.Fatalf("a 1 MiB answer under the limit: %v", got.Content)
	}
	if spent := after.TotalAlloc - before.TotalAlloc; spent > uint64(len(text)) {
		t.Errorf("checking a result of a %d-byte answer allocated %d bytes: it was encoded", len(text), spent)
	}
}
