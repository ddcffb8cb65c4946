package mcpserve

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"kitsoki/pkg/compose"
	"kitsoki/pkg/trace"
)

// Once the session's trace reaches its bound, each call is a tool error
// naming the bound and the fix (none is served untraced), the session goes
// on, and the trace ends with the line saying it was cut.
func TestTraceBoundFailsCallsLoudly(t *testing.T) {
	_, dir := writeStory(t, storyYAML(upstream(t)))
	tp := filepath.Join(t.TempDir(), "mcp.jsonl")
	tw, err := trace.CreateWith(tp, trace.Header{}, trace.Options{Sync: trace.SyncNever, MaxBytes: 64 << 10, BoundFix: "raise --trace-max-mib"})
	if err != nil {
		t.Fatal(err)
	}
	defer tw.Close()
	s, err := New(Options{StoryPath: dir, Sink: compose.AgentSink(compose.TraceSink(tw))})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	cs := connectPipe(t, s, nil)
	prompt := strings.Repeat("p", 20_000) // each call writes a sidecar of it and the answer echoing it
	var failed *mcp.CallToolResult
	for range 10 {
		r, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "kitsoki_agent_remote_ask", Arguments: map[string]any{"prompt": prompt}})
		if err != nil {
			t.Fatal(err)
		}
		if r.IsError {
			failed = r
			break
		}
	}
	if failed == nil {
		t.Fatal("10 calls of 40 KB traced under a 64 KiB bound")
	}
	for _, want := range []string{"past their bound of 64 KiB", "trace.truncated", "raise --trace-max-mib"} {
		if !strings.Contains(callText(failed), want) {
			t.Errorf("the tool error lacks %q: %s", want, callText(failed))
		}
	}
	r, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "kitsoki_agent_remote_ask", Arguments: map[string]any{"prompt": "short"}})
	if err != nil || !r.IsError || !strings.Contains(callText(r), "trace.truncated") {
		t.Fatalf("a call after the cut: %v %+v", err, r)
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	rd, err := trace.OpenFile(tp, trace.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	if _, err := rd.Header(); err != nil {
		t.Fatal(err)
	}
	last := ""
	if err := rd.Each(func(ev *trace.Event) { last = ev.Kind }); err != nil {
		t.Fatal(err)
	}
	if last != trace.TruncatedKind {
		t.Errorf("the trace ends with %s", last)
	}
}
