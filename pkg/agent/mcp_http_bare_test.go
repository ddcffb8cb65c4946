package agent

import (
	"cmp"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
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

// toolsOnlyServer is a server written to the existing engine's wire that
// knows one method: tools/call gets the AskResponse, anything else (the
// MCP initialize) the JSON-RPC answer of a method it does not have, as
// upstream's own echo agent answers (-32601 "method not found").
type toolsOnlyServer struct {
	mu      sync.Mutex
	methods []string
	result  string // the tools/call result; "" is one text item with {"decision":"go"}
}

func (s *toolsOnlyServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	var req map[string]any
	json.Unmarshal(body, &req)
	m, _ := req["method"].(string)
	s.mu.Lock()
	s.methods = append(s.methods, m)
	result := s.result
	s.mu.Unlock()
	out := map[string]any{"jsonrpc": "2.0", "id": req["id"]}
	if m == "tools/call" {
		out["result"] = json.RawMessage(cmp.Or(result, `{"content":[{"type":"text","text":"{\"submission\":{\"decision\":\"go\"}}"}]}`))
	} else {
		out["error"] = map[string]any{"code": -32601, "message": "method not found: " + m}
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(out)
}

// A server on the existing engine's wire that answers the MCP initialize
// with "method not found" serves the alias too. Probed
// (/tmp/agentwalk2-probes/mcp): kitsoki-existing's decide got its answer;
// ours failed every call with `connecting (MCP initialize) … failed:
// calling "initialize": method not found`.
func TestMCPHTTPToolsOnlyServerIsServed(t *testing.T) {
	srv := &toolsOnlyServer{}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	tr := newMCPTransport(t, &story.AgentPlugin{Endpoint: ts.URL + "/mcp"}, "")
	for i := range 2 {
		resp := askOK(t, tr, referenceRequest())
		if string(resp.Submission) != `{"decision":"go"}` {
			t.Fatalf("ask %d: submission %s", i, resp.Submission)
		}
	}
	srv.mu.Lock()
	defer srv.mu.Unlock()
	// The MCP handshake's requests, then one tools/call per Ask.
	n := len(srv.methods)
	if n < 3 || !slices.Contains(srv.methods[:n-2], "initialize") || slices.Contains(srv.methods[:n-2], "tools/call") ||
		srv.methods[n-2] != "tools/call" || srv.methods[n-1] != "tools/call" {
		t.Fatalf("methods %v, want the handshake's, then two tools/call", srv.methods)
	}
}

// On the existing engine's wire the answer is the first text item of the
// tool result, whatever comes before it and whatever structuredContent
// says; structuredContent is read only when there is no text item, and
// isError names the first text. Probed (/tmp/agentwalk2-probes/mcp):
// kitsoki-existing took the text after an image item and the text over a
// different structuredContent; ours failed the first (`illegal base64
// data`) and answered the second from structuredContent.
func TestMCPHTTPBareResultAsUpstream(t *testing.T) {
	good := `{\"submission\":{\"decision\":\"go\"}}`
	for _, c := range []struct {
		name, result, want, fail string
	}{
		{"image before text", `{"content":[{"type":"image","data":"x","mimeType":"image/png"},{"type":"text","text":"` + good + `"}]}`, `{"decision":"go"}`, ""},
		{"text over structuredContent", `{"content":[{"type":"text","text":"` + good + `"}],"structuredContent":{"decision":"other"}}`, `{"decision":"go"}`, ""},
		{"structuredContent alone", `{"content":[],"structuredContent":{"submission":{"decision":"s"}}}`, `{"decision":"s"}`, ""},
		{"isError", `{"isError":true,"content":[{"type":"image","data":"x"},{"type":"text","text":"tool blew up"}]}`, "", "reported an error (isError): tool blew up"},
		{"no text item", `{"content":[{"type":"image","data":"x"}]}`, "", "neither structuredContent nor a text content"},
		{"content not a list", `{"content":"x"}`, "", "is not a tools/call result"},
	} {
		t.Run(c.name, func(t *testing.T) {
			srv := &toolsOnlyServer{result: c.result}
			ts := httptest.NewServer(srv)
			defer ts.Close()
			tr := newMCPTransport(t, &story.AgentPlugin{Endpoint: ts.URL + "/mcp"}, "")
			if c.fail != "" {
				ae := askKind(t, tr, context.Background(), referenceRequest(), KindTransportError)
				if !strings.Contains(ae.Detail, c.fail) {
					t.Fatalf("detail %q, want %q", ae.Detail, c.fail)
				}
				return
			}
			if resp := askOK(t, tr, referenceRequest()); string(resp.Submission) != c.want {
				t.Fatalf("submission %s, want %s", resp.Submission, c.want)
			}
		})
	}
}
