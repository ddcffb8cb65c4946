package cmd

import (
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/agentplugins/echo"
	"kitsoki/internal/testing/agentplugins/mcpecho"
	"kitsoki/internal/testing/storytest"
)

// TestPluginTranscriptKeepsItsBytes: a real subprocess plugin and a real
// MCP server answer with a transcript whose events are spaced, unsorted,
// escaped, 1.50 and tabbed (echo.TranscriptWire); the run's
// transcripts/<call_id>.jsonl holds each event byte for byte as the plugin
// sent it, one a line, as the existing engine writes it (its `turn
// --trace` through a subprocess and an mcp_http plugin, hunt110,
// /tmp/hunt110/p3). encoding/json would compact them: the payload hands
// the trace writer its events as held (trace.RawTranscript).
func TestPluginTranscriptKeepsItsBytes(t *testing.T) {
	srv := mcpecho.New(mcpecho.Options{})
	ts := httptest.NewServer(srv)
	t.Cleanup(func() { srv.Stop(); ts.CloseClientConnections(); ts.Close() })
	root := storytest.TempTree(t, map[string]string{
		"story/app.yaml": fmt.Sprintf(`app: { id: transcribed, version: 0.1.0 }
agent_plugins:
  agent.sub: { plugin: subprocess, command: %q }
  agent.mcp: { plugin: mcp_http, endpoint: %q }
world:
  a: { type: object, default: {} }
  b: { type: object, default: {} }
root: start
states:
  start:
    on_enter:
      - invoke: host.agent.ask
        agent: agent.sub
        with: { prompt: "which is the best option for this context?", fault: transcript }
        bind: { a: submission }
      - invoke: host.agent.ask
        agent: agent.mcp
        with: { prompt: "which is the best option for this context?", fault: transcript }
        bind: { b: submission }
    terminal: true
`, echoAgent(t), ts.URL),
	})
	tracePath, _ := runTraced(t, filepath.Join(root, "story"), "--timeout", "2m")
	var refs []string
	for _, ev := range readTrace(t, tracePath) {
		if ev.Kind != "agent.call.complete" {
			continue
		}
		ref, _ := payloadOf(t, ev)["transcript_ref"].(map[string]any)
		if ref["format"] != "echo-fmt" || ref["events"] != float64(6) {
			t.Fatalf("%s's transcript_ref: %v", ev.CallID, ref)
		}
		refs = append(refs, ref["path"].(string))
	}
	if len(refs) != 2 {
		t.Fatalf("want the two calls' transcripts, got %v", refs)
	}
	for i, ref := range refs {
		path := filepath.Join(filepath.Dir(tracePath), ref)
		got, err := os.ReadFile(path)
		if err != nil || string(got) != echo.TranscriptEvents {
			t.Errorf("%s transcript %s:\n%q, %v\nwant the plugin's bytes:\n%q", []string{"subprocess", "mcp_http"}[i], ref, got, err, echo.TranscriptEvents)
		}
		timings, err := os.ReadFile(strings.TrimSuffix(path, ".jsonl") + ".timings")
		if want := "0 5\n1 6\n2 0\n3 0\n4 0\n5 0\n"; err != nil || string(timings) != want {
			t.Errorf("%s.timings = %q, %v; want %q", ref, timings, err, want)
		}
	}
}
