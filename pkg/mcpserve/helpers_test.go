package mcpserve

import (
	"context"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
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

func storyYAML(endpoint string, extraAliases ...string) string {
	var b strings.Builder
	b.WriteString("app: { id: mcpstory, version: 0.1.0 }\nagent_plugins:\n  agent.remote:\n    plugin: mcp_http\n    endpoint: " + endpoint + "\n")
	for _, a := range extraAliases {
		b.WriteString("  " + a + ":\n    plugin: mcp_http\n    endpoint: " + endpoint + "\n")
	}
	b.WriteString(`root: start
states:
  start:
    on_enter:
      - invoke: host.agent.decide
        agent: agent.remote
        with: { prompt: "judge", schema: schemas/verdict.json }
      - invoke: host.agent.ask
        agent: agent.remote
        with: { prompt: "hi" }
`)
	for _, a := range extraAliases {
		b.WriteString("      - invoke: host.agent.ask\n        agent: " + a + "\n        with: { prompt: \"hi\" }\n")
	}
	b.WriteString("    terminal: true\n")
	return b.String()
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
	s, err := New(Options{StoryPath: dir})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}
