package mcpserve

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"kitsoki/internal/testing/agenttest"
	"kitsoki/internal/testing/storytest"
)

func callText(r *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range r.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

func TestServeOverStdioFraming(t *testing.T) {
	_, dir := writeStory(t, storyYAML(upstream(t)))
	sink := &agenttest.RecordingSink{}
	s, err := New(Options{StoryPath: dir, Sink: sink})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	cs := connectPipe(t, s, nil)

	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	var decide *mcp.Tool
	for _, tl := range res.Tools {
		names = append(names, tl.Name)
		if tl.Name == "kitsoki_agent_remote_decide" {
			decide = tl
		}
	}
	if !slices.Equal(names, []string{"kitsoki_agent_remote_ask", "kitsoki_agent_remote_decide"}) {
		t.Fatalf("tools = %v", names)
	}
	out, _ := json.Marshal(decide.OutputSchema)
	in, _ := json.Marshal(decide.InputSchema)
	if !strings.Contains(string(out), `"required":["decision"]`) || !strings.Contains(string(in), `"required":["prompt"]`) {
		t.Fatalf("schemas: in %s out %s", in, out)
	}
	if decide.Meta["kitsoki/generation"] != s.generation {
		t.Fatalf("tool meta = %v", decide.Meta)
	}

	r, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "kitsoki_agent_remote_decide",
		Arguments: map[string]any{"prompt": "ship it?", "args": map[string]any{"pr": 7}}})
	if err != nil {
		t.Fatal(err)
	}
	if r.IsError {
		t.Fatalf("call failed: %s", callText(r))
	}
	sc, _ := json.Marshal(r.StructuredContent)
	if string(sc) != `{"args":{"pr":7},"decision":"approve","prompt":"ship it?"}` {
		t.Fatalf("structuredContent = %s", sc)
	}
	// traced like a story call
	start, ok := sink.First("agent.call.start")
	if !ok || agenttest.PayloadMap(start)["prompt"] != "ship it?" || agenttest.PayloadMap(start)["verb"] != "decide" {
		t.Fatalf("start event: %+v (kinds %v)", start, sink.Kinds())
	}
	if _, ok := sink.First("agent.call.complete"); !ok {
		t.Fatalf("no agent.call.complete: %v", sink.Kinds())
	}

	// invalid input is rejected before anything is dispatched
	before := len(sink.Kinds())
	for _, args := range []map[string]any{{}, {"prompt": ""}, {"prompt": "x", "args": "no"}, {"prompt": "x", "extra": 1}} {
		r, err = cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "kitsoki_agent_remote_decide", Arguments: args})
		if err != nil || !r.IsError || !strings.Contains(callText(r), "invalid input") {
			t.Fatalf("args %v: err %v result %+v", args, err, r)
		}
	}
	if len(sink.Kinds()) != before {
		t.Fatal("an invalid call reached the agent")
	}

	// no schema: a string answer is text only
	r, err = cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "kitsoki_agent_remote_ask", Arguments: map[string]any{"prompt": "hello"}})
	if err != nil || r.IsError || callText(r) != `"echo: hello"` || r.StructuredContent != nil {
		t.Fatalf("ask: %v %+v %q", err, r, callText(r))
	}
}

type bearer struct {
	token string
	base  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.base.RoundTrip(r)
}

func TestServeOverHTTPWithBearer(t *testing.T) {
	_, dir := writeStory(t, storyYAML(upstream(t)))
	s := newServer(t, dir)
	ts := httptest.NewServer(s.HTTPHandler("s3cret"))
	defer ts.Close()
	ctx := context.Background()

	client := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "v0"}, nil)
	if _, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: ts.URL, MaxRetries: -1}, nil); err == nil {
		t.Fatal("connected without the bearer token")
	}
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: ts.URL, MaxRetries: -1,
		HTTPClient: &http.Client{Transport: bearer{"s3cret", http.DefaultTransport}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	r, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "kitsoki_agent_remote_decide", Arguments: map[string]any{"prompt": "p"}})
	if err != nil || r.IsError {
		t.Fatalf("call over HTTP: %v %s", err, callText(r))
	}
	if m, _ := r.StructuredContent.(map[string]any); m["decision"] != "approve" {
		t.Fatalf("structuredContent = %v", r.StructuredContent)
	}
}

func TestListChangedAfterEditAndRevokedAliasFailsClosed(t *testing.T) {
	url := upstream(t)
	root, dir := writeStory(t, storyYAML(url))
	s := newServer(t, dir)
	changed := make(chan struct{}, 16)
	cs := connectPipe(t, s, &mcp.ClientOptions{ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) {
		changed <- struct{}{}
	}})
	rev0 := s.Current().Revision

	// An edit adds an alias: the watcher replaces the catalog and notifies.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go s.Watch(ctx, 20*time.Millisecond)
	writeAtomic(t, filepath.Join(dir, "app.yaml"), storyYAML(url, "agent.helper"))
	select {
	case <-changed:
	case <-time.After(time.Minute): // a hang guard
		t.Fatal("no notifications/tools/list_changed after editing the story")
	}
	deadline := time.Now().Add(time.Minute) // a hang guard
	for got := toolNames(t, cs); !slices.Contains(got, "kitsoki_agent_helper_ask"); got = toolNames(t, cs) {
		if time.Now().After(deadline) {
			t.Fatalf("tools after edit = %v", got)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if s.Current().Revision <= rev0 || s.Current().Generation != s.generation {
		t.Fatalf("revision %d after %d", s.Current().Revision, rev0)
	}
	cancel()

	// The profile revokes agent.remote; with no watcher running, the call
	// itself re-reads the profile and fails closed.
	storytest.WriteFile(t, filepath.Join(root, ".kitsoki", "plugins.yaml"), "disable: [agent.remote]\n")
	r, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "kitsoki_agent_remote_decide", Arguments: map[string]any{"prompt": "p"}})
	if err != nil {
		t.Fatal(err)
	}
	if !r.IsError || !strings.Contains(callText(r), "is not available") {
		t.Fatalf("revoked alias answered: %+v %q", r, callText(r))
	}
	if got := toolNames(t, cs); slices.Contains(got, "kitsoki_agent_remote_decide") || !slices.Contains(got, "kitsoki_agent_helper_ask") {
		t.Fatalf("tools after revocation = %v", got)
	}

	// A stale refresh never restores removed tools.
	stale := &Catalog{Generation: s.generation, Revision: 1, Tools: map[string]*Tool{"kitsoki_agent_remote_decide": {Name: "kitsoki_agent_remote_decide"}}}
	if s.Apply(stale) {
		t.Fatal("a stale catalog was applied")
	}
	if got := toolNames(t, cs); slices.Contains(got, "kitsoki_agent_remote_decide") {
		t.Fatalf("stale refresh restored a tool: %v", got)
	}

	// A story that no longer loads serves nothing (fail closed).
	storytest.WriteFile(t, filepath.Join(dir, "app.yaml"), "app: [broken\n")
	_ = s.Refresh()
	if got := toolNames(t, cs); len(got) != 0 || s.Current().Err == "" {
		t.Fatalf("broken story still serves %v", got)
	}
}

// writeAtomic replaces path in one rename, so a watcher never reads a
// half-written file.
func writeAtomic(t *testing.T, path, content string) {
	t.Helper()
	storytest.WriteFile(t, path+".tmp", content)
	if err := os.Rename(path+".tmp", path); err != nil {
		t.Fatal(err)
	}
}
