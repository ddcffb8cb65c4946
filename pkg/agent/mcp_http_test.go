package agent

import (
	"bytes"
	"context"
	"io"
	"log"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"kitsoki/internal/testing/agentplugins/mcpecho"
	"kitsoki/pkg/story"
)

// mcpFixture is a real MCP server (official Go SDK) on loopback.
type mcpFixture struct {
	srv *mcpecho.Server
	ts  *httptest.Server
	mu  sync.Mutex
	hdr []http.Header
}

func newMCPFixture(t *testing.T, o mcpecho.Options) *mcpFixture {
	t.Helper()
	f := &mcpFixture{}
	o.OnCall = func(h http.Header) {
		f.mu.Lock()
		f.hdr = append(f.hdr, h.Clone())
		f.mu.Unlock()
	}
	f.srv = mcpecho.New(o)
	f.ts = httptest.NewServer(f.srv)
	t.Cleanup(func() {
		f.srv.Stop()
		f.ts.CloseClientConnections()
		f.ts.Close()
	})
	return f
}

func (f *mcpFixture) headers() []http.Header {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]http.Header(nil), f.hdr...)
}

func newMCPTransport(t *testing.T, p *story.AgentPlugin, secret string) *mcpHTTPTransport {
	t.Helper()
	bc := BuildContext{Logger: slog.New(slog.NewTextHandler(&SyncBuffer{}, &slog.HandlerOptions{Level: slog.LevelDebug}))}
	if secret != "" {
		bc.Redact = func(s string) string { return strings.ReplaceAll(s, secret, "[REDACTED]") }
	}
	if p.Alias == "" {
		p.Alias = "agent.remote"
	}
	p.Plugin = story.PluginMCPHTTP
	tr, err := newMCPHTTPTransport(p, bc)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tr.Close() })
	return tr.(*mcpHTTPTransport)
}

func TestMCPHTTPAnswersOverOneSessionWithHeaders(t *testing.T) {
	for _, structured := range []bool{false, true} {
		name := "text"
		if structured {
			name = "structuredContent"
		}
		t.Run(name, func(t *testing.T) {
			f := newMCPFixture(t, mcpecho.Options{Structured: structured})
			tr := newMCPTransport(t, &story.AgentPlugin{Endpoint: f.ts.URL, Headers: map[string]string{"Authorization": "Bearer tok-123", "X-Team": "infra"}}, "tok-123")
			for range 3 {
				resp := askOK(t, tr, referenceRequest())
				if string(resp.Submission) != referenceSubmission {
					t.Fatalf("submission:\n got %s\nwant %s", resp.Submission, referenceSubmission)
				}
				if resp.Meta["transport"] != "mcp_http" {
					t.Fatalf("meta %v", resp.Meta)
				}
			}
			if n := f.srv.Sessions(); n != 1 {
				t.Fatalf("want one MCP session for three calls, server saw %d", n)
			}
			hs := f.headers()
			if len(hs) != 3 {
				t.Fatalf("tool calls seen: %d", len(hs))
			}
			for _, h := range hs {
				if h.Get("Authorization") != "Bearer tok-123" || h.Get("X-Team") != "infra" {
					t.Fatalf("declared headers missing: %v", h)
				}
			}
			tr.Close()
			if f.srv.Deletes() == 0 && hs[0].Get("Mcp-Session-Id") != "" {
				t.Fatal("Close did not end the MCP session")
			}
			askKind(t, tr, context.Background(), referenceRequest(), KindTransportError)
		})
	}
}

func TestMCPHTTPStructuredKeepsPluginBytes(t *testing.T) {
	f := newMCPFixture(t, mcpecho.Options{Structured: true})
	tr := newMCPTransport(t, &story.AgentPlugin{Endpoint: f.ts.URL}, "")
	if resp := askOK(t, tr, withFault("unsorted")); string(resp.Submission) != `{"b":1,"a":2}` {
		t.Fatalf("submission bytes %s", resp.Submission)
	}
	// Without the text copy, structuredContent itself is the answer.
	res := &mcp.CallToolResult{StructuredContent: map[string]any{"submission": map[string]any{"b": 1, "a": 2}}}
	resp, err := tr.decode(res)
	if err != nil || string(resp.Submission) != `{"a":2,"b":1}` {
		t.Fatalf("structuredContent only: %s %v", resp.Submission, err)
	}
}

func TestMCPHTTPToolName(t *testing.T) {
	f := newMCPFixture(t, mcpecho.Options{Tool: "classify"})
	tr := newMCPTransport(t, &story.AgentPlugin{Endpoint: f.ts.URL, Tool: "classify"}, "")
	if resp := askOK(t, tr, referenceRequest()); string(resp.Submission) != referenceSubmission {
		t.Fatalf("submission %s", resp.Submission)
	}
	// The default tool name "ask" is not served here: a clear transport_error.
	other := newMCPTransport(t, &story.AgentPlugin{Endpoint: f.ts.URL}, "")
	ae := askKind(t, other, context.Background(), referenceRequest(), KindTransportError)
	if !strings.Contains(ae.Detail, `"ask"`) {
		t.Fatalf("detail: %s", ae.Detail)
	}
}

func TestMCPHTTPFaults(t *testing.T) {
	f := newMCPFixture(t, mcpecho.Options{})
	tr := newMCPTransport(t, &story.AgentPlugin{Endpoint: f.ts.URL, Headers: map[string]string{"Authorization": "Bearer s3cr3t"}}, "s3cr3t")
	cases := []struct {
		fault  string
		kind   Kind
		detail string
	}{
		{"is_error", KindTransportError, "deliberate tool failure"},
		{"garbage", KindTransportError, `is not an AskResponse JSON object`},
		{"http500", KindTransportError, "internal failure: deliberate"},
		{"drop", KindTransportError, `calling tool "ask"`},
	}
	for _, c := range cases {
		t.Run(c.fault, func(t *testing.T) {
			ae := askKind(t, tr, context.Background(), withFault(c.fault), c.kind)
			if !strings.Contains(ae.Detail, c.detail) {
				t.Fatalf("detail lacks %q:\n%s", c.detail, ae.Detail)
			}
			if strings.Contains(ae.Detail, "s3cr3t") {
				t.Fatalf("secret in detail: %s", ae.Detail)
			}
			// The transport recovers for the next call.
			if resp := askOK(t, tr, referenceRequest()); string(resp.Submission) != referenceSubmission {
				t.Fatalf("after %s: %s", c.fault, resp.Submission)
			}
		})
	}
	t.Run("hang", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		defer cancel()
		askKind(t, tr, ctx, withFault("hang"), KindDeadlineExceeded)
		if resp := askOK(t, tr, referenceRequest()); string(resp.Submission) != referenceSubmission {
			t.Fatalf("after hang: %s", resp.Submission)
		}
	})
	t.Run("late answer", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		defer cancel()
		askKind(t, tr, ctx, withFault("slow:60000"), KindDeadlineExceeded) // answers long after the deadline
		req := referenceRequest()
		req.Prompt = "a different prompt"
		if resp := askOK(t, tr, req); !bytes.Contains(resp.Submission, []byte("a different prompt")) {
			t.Fatalf("stale answer: %s", resp.Submission)
		}
	})
}

func TestMCPHTTPConnectFailures(t *testing.T) {
	// Nothing listens on a port we just closed.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	tr := newMCPTransport(t, &story.AgentPlugin{Endpoint: "http://" + addr + "/mcp"}, "")
	ae := askKind(t, tr, context.Background(), referenceRequest(), KindTransportError)
	if !strings.Contains(ae.Detail, "connecting (MCP initialize)") || !strings.Contains(ae.Detail, addr) {
		t.Fatalf("detail: %s", ae.Detail)
	}

	// A TLS server whose certificate kitsoki does not trust.
	srv := mcpecho.New(mcpecho.Options{})
	ts := httptest.NewUnstartedServer(srv)
	ts.Config.ErrorLog = log.New(io.Discard, "", 0) // the expected handshake failures
	ts.StartTLS()
	defer ts.Close()
	tr2 := newMCPTransport(t, &story.AgentPlugin{Endpoint: ts.URL}, "")
	ae = askKind(t, tr2, context.Background(), referenceRequest(), KindTransportError)
	if !strings.Contains(ae.Detail, "certificate") {
		t.Fatalf("detail: %s", ae.Detail)
	}

	for _, ep := range []string{"", "ftp://x/y", "localhost:7301"} {
		if _, err := newMCPHTTPTransport(&story.AgentPlugin{Alias: "agent.r", Endpoint: ep}, BuildContext{}); err == nil || !strings.Contains(err.Error(), "agent_plugins.agent.r: mcp_http") {
			t.Errorf("endpoint %q: %v", ep, err)
		}
	}
}

func TestMCPHTTPWaitersHonourTheirDeadline(t *testing.T) {
	// A server that accepts connections but never answers initialize.
	release := make(chan struct{})
	arrived := make(chan struct{}, 1)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// The first call's cancellation notice is taken at once (the SDK
		// closes the session only once it is sent or its own timeout
		// passes; the call no longer waits for that:
		// TestMCPHTTPReturnsAtItsDeadline).
		if body, _ := io.ReadAll(r.Body); bytes.Contains(body, []byte(`"notifications/cancelled"`)) {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		select {
		case arrived <- struct{}{}:
		default:
		}
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer ts.Close()
	defer close(release)
	tr := newMCPTransport(t, &story.AgentPlugin{Endpoint: ts.URL}, "")
	first := make(chan error, 1)
	firstCtx, endFirst := context.WithCancel(context.Background())
	defer endFirst()
	go func() {
		_, err := tr.Ask(firstCtx, referenceRequest())
		first <- err
	}()
	select { // the first caller is connecting
	case <-arrived:
	case <-time.After(time.Minute):
		t.Fatal("the first call never reached the server")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	ae := askKind(t, tr, ctx, referenceRequest(), KindDeadlineExceeded)
	if !strings.Contains(ae.Detail, "waiting for the MCP session") {
		t.Fatalf("the second caller did not wait on its own deadline: %s", ae.Detail)
	}
	select {
	case err := <-first:
		t.Fatalf("the first call ended before its deadline: %v", err)
	default:
	}
	endFirst()
	if k := KindOf(<-first); k != KindDeadlineExceeded {
		t.Fatalf("first call: %s", k)
	}
}

func TestMCPHTTPConcurrentSessions(t *testing.T) {
	f := newMCPFixture(t, mcpecho.Options{})
	a := newMCPTransport(t, &story.AgentPlugin{Endpoint: f.ts.URL}, "")
	b := newMCPTransport(t, &story.AgentPlugin{Endpoint: f.ts.URL}, "")
	var wg sync.WaitGroup
	errs := make(chan error, 20)
	for i := range 20 {
		tr := a
		if i%2 == 1 {
			tr = b
		}
		wg.Go(func() {
			resp, err := tr.Ask(context.Background(), referenceRequest())
			if err == nil && string(resp.Submission) != referenceSubmission {
				err = &AskError{Kind: "wrong", Detail: string(resp.Submission)}
			}
			errs <- err
		})
	}
	WaitNoError(t, &wg, errs)
	if n := f.srv.Sessions(); n != 2 {
		t.Fatalf("two transports, want two sessions, server saw %d", n)
	}
}

// A session whose connection is already shutting down refuses the call
// before writing it; the transport opens a fresh session and sends the
// request once there, so the answer is not lost and the plugin sees one call.
func TestMCPHTTPRequestRefusedByClosingSessionGoesToAFreshOne(t *testing.T) {
	f := newMCPFixture(t, mcpecho.Options{})
	tr := newMCPTransport(t, &story.AgentPlugin{Endpoint: f.ts.URL}, "")
	askOK(t, tr, referenceRequest())
	tr.mu.Lock()
	stale := tr.session
	tr.mu.Unlock()
	stale.Close() // the connection shuts down behind the transport's back

	resp := askOK(t, tr, referenceRequest())
	if string(resp.Submission) != referenceSubmission {
		t.Fatalf("submission %s", resp.Submission)
	}
	if n := f.srv.Sessions(); n != 2 {
		t.Fatalf("want a second session after the first closed, server saw %d", n)
	}
	if n := len(f.headers()); n != 2 {
		t.Fatalf("the plugin must see each request once: %d tool calls", n)
	}
}

// The answer limit is the transport's own, not the SDK's: its default is
// the subprocess frame cap, above the SDK's 16 MiB, and the SDK enforces
// whatever the transport sets — shown with a lowered limit, so an answer
// just under it passes and one just over fails, quickly even under -race
// (where the "50 MB answer" fault test runs below 16 MiB). Were the limit
// not passed to the SDK, the larger answer would pass under its default.
// The limit holds as well for a server that answers with one JSON body
// (Content-Type: application/json, the streamable transport's other form):
// the SDK reads such a body whole, so without a cap a server could send
// gigabytes.
func TestMCPHTTPAnswerLimitIsTheTransports(t *testing.T) {
	if maxFrameBytes <= mcp.DefaultMaxEventSize {
		t.Fatalf("the frame cap %d does not raise the SDK's %d", maxFrameBytes, mcp.DefaultMaxEventSize)
	}
	for name, jsonBody := range map[string]bool{"events": false, "json-body": true} {
		t.Run(name, func(t *testing.T) {
			f := newMCPFixture(t, mcpecho.Options{HTTP: &mcp.StreamableHTTPOptions{JSONResponse: jsonBody}})
			tr := newMCPTransport(t, &story.AgentPlugin{Endpoint: f.ts.URL}, "")
			if tr.maxEvent != maxFrameBytes {
				t.Fatalf("default answer limit %d, want the frame cap %d", tr.maxEvent, maxFrameBytes)
			}
			const limit = 256 << 10
			tr.maxEvent = limit
			// An answer travels in the event about twice (text and structured
			// content): a quarter of the limit is well under it, the limit well over.
			if resp := askOK(t, tr, withFault("big:"+strconv.Itoa(limit/4))); len(resp.Submission) < limit/4 {
				t.Fatalf("submission of %d bytes", len(resp.Submission))
			}
			ae := askKind(t, tr, context.Background(), withFault("big:"+strconv.Itoa(limit)), KindTransportError)
			if !strings.Contains(ae.Detail, strconv.Itoa(limit)) {
				t.Fatalf("the error does not name the limit:\n%s", ae.Detail)
			}
			if resp := askOK(t, tr, referenceRequest()); string(resp.Submission) != referenceSubmission {
				t.Fatalf("after the over-limit answer: %s", resp.Submission)
			}
		})
	}
}

// An HTTP error answer is quoted in the call's error: its status and the
// start of its body (trimmed), or the status alone when the body is empty.
func TestMCPHTTPErrorAnswerIsQuoted(t *testing.T) {
	for body, want := range map[string]string{
		"  token expired\n": "; the server answered HTTP 401 Unauthorized: token expired",
		"":                  "; the server answered HTTP 401 Unauthorized",
	} {
		ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusUnauthorized)
			io.WriteString(w, body)
		}))
		tr := newMCPTransport(t, &story.AgentPlugin{Endpoint: ts.URL}, "")
		ae := askKind(t, tr, context.Background(), referenceRequest(), KindTransportError)
		if !strings.HasSuffix(ae.Detail, want) {
			t.Errorf("body %q: detail %s, want it to end with %q", body, ae.Detail, want)
		}
		ts.Close()
	}
}
