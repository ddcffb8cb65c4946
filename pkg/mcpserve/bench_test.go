package mcpserve

import (
	"context"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"kitsoki/internal/testing/storytest"
	"kitsoki/pkg/agent"
)

func BenchmarkToolName(b *testing.B) {
	long := "agent." + strings.Repeat("long_alias_", 8)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := toolName(long, "decide"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkServeCall: one tools/call from the SDK client over the stdio
// framing (io.Pipe) through kitsoki to an upstream MCP server on loopback,
// including the per-call revalidation (fingerprint of story, profile,
// schemas) and schema validation.
func BenchmarkServeCall(b *testing.B) {
	url := upstream(b)
	_, dir := writeStory(b, storyYAML(url))
	s := newServer(b, dir)
	cs := connectPipe(b, s, nil)
	args := &mcp.CallToolParams{Name: "kitsoki_agent_remote_decide", Arguments: map[string]any{"prompt": "p"}}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r, err := cs.CallTool(context.Background(), args)
		if err != nil || r.IsError {
			b.Fatal(err, r)
		}
	}
}

// BenchmarkServeBigAnswer: one tools/call whose agent answers a 4 MiB
// string (as a model's prose, with escapes), from the SDK client over the
// stdio transport to an upstream MCP server on loopback; B/op counts both
// ends, the upstream's copies included.
func BenchmarkServeBigAnswer(b *testing.B) {
	answer := strings.Repeat("a line of prose\n", 4<<20/16)
	url := storytest.MCPAsk(b, "big", func(*mcp.CallToolRequest, agent.AskRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{StructuredContent: map[string]any{"submission": answer}, Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, nil
	})
	_, dir := writeStory(b, storyYAML(url))
	s := newServer(b, dir)
	cs := connectPipe(b, s, nil)
	args := &mcp.CallToolParams{Name: "kitsoki_agent_remote_ask", Arguments: map[string]any{"prompt": "p"}}
	b.ReportAllocs()
	for b.Loop() {
		r, err := cs.CallTool(context.Background(), args)
		if err != nil || r.IsError {
			b.Fatal(err, r)
		}
	}
}
