package agent

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"kitsoki/pkg/story"
)

// bareServer answers every POST as a server written to the existing
// engine's mcp_http wire does (agent-contract §3): one JSON-RPC object whose
// result carries the AskResponse as text, or the error it is given. It
// records each request's method, id, X-Tok header and tool arguments.
type bareServer struct {
	mu   sync.Mutex
	seen []map[string]any
	fail bool
}

func (b *bareServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.WriteHeader(http.StatusMethodNotAllowed)
		return
	}
	body, _ := io.ReadAll(r.Body)
	var req map[string]any
	json.Unmarshal(body, &req)
	req["x-tok"] = r.Header.Get("X-Tok")
	b.mu.Lock()
	b.seen = append(b.seen, req)
	fail := b.fail
	b.mu.Unlock()
	out := map[string]any{"jsonrpc": "2.0", "id": req["id"]}
	if fail {
		out["error"] = map[string]any{"code": -32000, "message": "deliberate"}
	} else {
		out["result"] = map[string]any{"content": []any{map[string]any{"type": "text",
			"text": `{"submission":{"b":1,  "a":2},"meta":{"m":1}}`}}}
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(out)
}

// A server that answers a bare tools/call and nothing MCP (the existing
// engine's wire: no initialize, no session) still serves the alias: the
// transport sees the initialize answered without a protocol version and
// sends each Ask as one tools/call POST, id 1, with the declared headers;
// the submission keeps the plugin's bytes. Probed: such a server answers
// kitsoki-existing's decide and failed ours with "unsupported protocol
// version".
func TestMCPHTTPBareServerIsServed(t *testing.T) {
	srv := &bareServer{}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	tr := newMCPTransport(t, &story.AgentPlugin{Endpoint: ts.URL + "/mcp", Headers: map[string]string{"X-Tok": "abc"}}, "")
	for i := range 2 {
		resp := askOK(t, tr, referenceRequest())
		if string(resp.Submission) != `{"b":1,  "a":2}` || resp.Meta["m"] != float64(1) {
			t.Fatalf("ask %d: submission %s meta %v", i, resp.Submission, resp.Meta)
		}
	}
	srv.mu.Lock()
	var calls []map[string]any
	for _, r := range srv.seen {
		if r["method"] == "tools/call" {
			calls = append(calls, r)
		}
	}
	srv.mu.Unlock()
	if len(calls) != 2 {
		t.Fatalf("%d tools/call requests, want 2 (one per Ask): %v", len(calls), srv.seen)
	}
	for _, c := range calls {
		p, _ := c["params"].(map[string]any)
		args, _ := p["arguments"].(map[string]any)
		if c["id"] != float64(1) || p["name"] != "ask" || args["verb"] != "decide" || c["x-tok"] != "abc" {
			t.Fatalf("bare tools/call = %v", c)
		}
	}

	srv.mu.Lock()
	srv.fail = true
	srv.mu.Unlock()
	ae := askKind(t, tr, context.Background(), referenceRequest(), KindTransportError)
	if !strings.Contains(ae.Detail, "rpc error -32000: deliberate") {
		t.Fatalf("detail: %s", ae.Detail)
	}
}
