package mcpserve

import (
	"context"
	"io"
	"path/filepath"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"kitsoki/internal/testing/mcpstory"
	"kitsoki/internal/testing/storytest"
	"kitsoki/pkg/agent"
)

// upstream is a real MCP server (the SDK's) answering the mcp_http
// transport's "ask" tool: schema calls get {decision, prompt}, others the
// prompt echoed as a JSON string.
func upstream(t testing.TB) string {
	t.Helper()
	return storytest.MCPAsk(t, "upstream", func(_ *mcp.CallToolRequest, ar agent.AskRequest) (*mcp.CallToolResult, error) {
		var resp map[string]any
		if len(ar.Schema) > 0 {
			resp = map[string]any{"submission": map[string]any{"decision": "approve", "prompt": ar.Prompt, "args": ar.With["args"]}, "meta": map[string]any{"cost_usd": 0.25}}
		} else {
			resp = map[string]any{"submission": "echo: " + ar.Prompt}
		}
		return &mcp.CallToolResult{StructuredContent: resp, Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, nil
	})
}

const verdictSchema = `{"type":"object","required":["decision"],"properties":{"decision":{"enum":["approve","reject"]},"prompt":{"type":"string"},"args":{}}}`

// storyYAML is the served story: agent.remote (at endpoint) decides with
// the verdict schema and asks; each extra alias (at the same endpoint)
// asks.
func storyYAML(endpoint string, extraAliases ...string) string {
	calls := []mcpstory.Call{
		{Alias: "agent.remote", Endpoint: endpoint, Host: "host.agent.decide", Prompt: "judge", Schema: "schemas/verdict.json"},
		{Alias: "agent.remote", Endpoint: endpoint, Host: "host.agent.ask", Prompt: "hi"},
	}
	for _, a := range extraAliases {
		calls = append(calls, mcpstory.Call{Alias: a, Endpoint: endpoint, Host: "host.agent.ask", Prompt: "hi"})
	}
	return mcpstory.App("mcpstory", calls...)
}

// writeStory writes a story dir (and .kitsoki/ beside it) under a temp root.
func writeStory(t testing.TB, yaml string) (root, dir string) {
	t.Helper()
	root = t.TempDir()
	dir = filepath.Join(root, "story")
	storytest.WriteFile(t, filepath.Join(dir, "app.yaml"), yaml)
	storytest.WriteFile(t, filepath.Join(dir, "schemas", "verdict.json"), verdictSchema)
	return root, dir
}

// connectPipe connects the SDK client to s over io.Pipe pairs with the
// newline-delimited stdio framing.
func connectPipe(t testing.TB, s *Server, copts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	cr, sw := io.Pipe()
	sr, cw := io.Pipe()
	ss, err := s.MCP().Connect(ctx, &mcp.IOTransport{Reader: sr, Writer: sw}, nil)
	if err != nil {
		t.Fatal(err)
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "v0"}, copts)
	cs, err := client.Connect(ctx, &mcp.IOTransport{Reader: cr, Writer: cw}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cs.Close()
		_ = ss.Close()
		cancel()
	})
	return cs
}

func toolNames(t *testing.T, cs *mcp.ClientSession) []string {
	t.Helper()
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, tl := range res.Tools {
		out = append(out, tl.Name)
	}
	return out
}

// newServer serves the story at dir until the test ends.
func newServer(t testing.TB, dir string) *Server {
	t.Helper()
	return newServerWith(t, Options{StoryPath: dir})
}

// newServerWith is newServer with opts, closed when the test ends.
func newServerWith(t testing.TB, opts Options) *Server {
	t.Helper()
	s, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}
