package agent

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"kitsoki/internal/childproc"
	"kitsoki/internal/closeonce"
	"kitsoki/internal/jsonvalue"
	"kitsoki/pkg/story"
)

// The mcp_http transport is a real MCP client (the official Go SDK) over
// streamable HTTP: one session, opened by the first Ask and reused until
// Close or a failure, and one tools/call of tool: (default "ask") per Ask
// with the AskRequest as arguments. headers: go on every HTTP request.
// Failures and answers item by item: docs/compat/agent-contract.md §3.

// mcpClientVersion is what kitsoki announces in initialize.
const mcpClientVersion = "v1"

// mcpCloseGrace bounds how long Close waits for the server to end the
// session before it aborts the request.
const mcpCloseGrace = 2 * time.Second

type mcpHTTPTransport struct {
	alias    string
	endpoint string
	tool     string
	client   *mcp.Client
	http     *http.Client
	base     *http.Transport
	shutdown context.CancelFunc // aborts every HTTP request still running at Close
	log      *slog.Logger
	redact   func(string) string
	// maxEvent bounds one server-sent event, i.e. one answer:
	// maxFrameBytes (the subprocess transport's limit), above the SDK's
	// 16 MiB default. Tests lower it to prove the rule with small answers.
	maxEvent int
	// costFloor is jsoncost.Floor for an answer's check (0: that floor),
	// which tests lower (mcp_http_cost.go).
	costFloor int64

	mu         sync.Mutex // guards session, connecting and closed
	session    *mcp.ClientSession
	connecting chan struct{} // closed when the running connection attempt ends
	closed     bool
	bare       atomic.Bool    // the server speaks the existing engine's bare wire (mcp_http_bare.go)
	closing    sync.WaitGroup // sessions being closed after a failure
}

// newMCPHTTPTransport is the Builder for plugin: mcp_http.
func newMCPHTTPTransport(p *story.AgentPlugin, bc BuildContext) (Transport, error) {
	ep := strings.TrimSpace(p.Endpoint)
	if ep == "" {
		return nil, fmt.Errorf("agent_plugins.%s: mcp_http plugin requires endpoint: (the MCP server's URL, e.g. endpoint: http://localhost:7301/mcp)", p.Alias)
	}
	u, err := url.Parse(ep)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("agent_plugins.%s: mcp_http endpoint %q is not an http:// or https:// URL", p.Alias, bc.Mask(ep))
	}
	base := http.DefaultTransport.(*http.Transport).Clone()
	headers := make(http.Header, len(p.Headers))
	for k, v := range p.Headers {
		headers.Set(k, v)
	}
	closed, shutdown := context.WithCancel(context.Background())
	t := &mcpHTTPTransport{
		alias:    p.Alias,
		endpoint: ep,
		tool:     cmp.Or(p.Tool, "ask"),
		client:   mcp.NewClient(&mcp.Implementation{Name: "kitsoki", Version: mcpClientVersion}, nil),
		base:     base,
		shutdown: shutdown,
		log:      bc.Logger,
		redact:   bc.Mask,
		maxEvent: maxFrameBytes,
	}
	// No client Timeout: calls are bounded by their context.
	t.http = &http.Client{Transport: &headerRoundTripper{base: base, headers: headers, closed: closed, maxJSON: func() int { return t.maxEvent }, costFloor: func() int64 { return t.costFloor }},
		CheckRedirect: SameOriginRedirects(u, bc.Mask)}
	return t, nil
}

// connect returns the session, connecting and initializing on first use.
// One connection attempt runs at a time; callers that arrive meanwhile wait
// for it under their own context and, if it failed, try themselves.
func (t *mcpHTTPTransport) connect(ctx context.Context, rec *httpFailure) (*mcp.ClientSession, error) {
	for {
		t.mu.Lock()
		if t.closed {
			t.mu.Unlock()
			return nil, t.errf(KindTransportError, "the transport is closed (Ask after Close)")
		}
		if t.session != nil {
			s := t.session
			t.mu.Unlock()
			return s, nil
		}
		if wait := t.connecting; wait != nil {
			t.mu.Unlock()
			select {
			case <-wait:
				continue
			case <-ctx.Done():
				return nil, t.errf(KindDeadlineExceeded, "the call ended (%v) while waiting for the MCP session to %s to open", ctx.Err(), t.endpoint)
			}
		}
		done := make(chan struct{})
		t.connecting = done
		t.mu.Unlock()

		s, err := t.open(ctx)

		t.mu.Lock()
		t.connecting = nil
		close(done)
		if err == nil && t.closed {
			t.mu.Unlock()
			s.Close()
			return nil, t.errf(KindTransportError, "the transport was closed while the MCP session was opening")
		}
		if err == nil {
			t.session = s
		}
		t.mu.Unlock()
		if err != nil && ctx.Err() == nil && isBareServer(err) {
			return nil, errBareServer
		}
		if err != nil {
			return nil, t.failure(ctx, "connecting (MCP initialize)", err, rec)
		}
		if t.log != nil {
			t.log.Debug("mcp_http session opened", "agent", t.alias, "session", s.ID())
		}
		return s, nil
	}
}

// track counts one background tail in closing, or refuses when the
// transport was closed (under mu, so Close cannot set closed and Wait in
// between).
func (t *mcpHTTPTransport) track() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return errors.New("the transport was closed")
	}
	t.closing.Add(1)
	return nil
}

// detach runs f on a goroutine counted in closing and returns what f
// returns (also when it is there as ctx ends), or ctx's error as soon as
// ctx ends even if the SDK has not: a Connect or CallTool that the server
// never answers fails at the deadline but then waits for its
// notifications/cancelled POST to the same silent server (up to the SDK's
// own timeout). That tail runs in the background:
// Close aborts its requests and waits for it. late gets what f returns
// once nobody waits for it.
func detach[T any](t *mcpHTTPTransport, ctx context.Context, f func() (T, error), late func(T, error)) (T, error) {
	type result struct {
		v   T
		err error
	}
	var zero T
	done, abandoned := make(chan result), make(chan struct{})
	if err := t.track(); err != nil {
		return zero, err
	}
	go func() {
		defer t.closing.Done()
		v, err := f()
		select {
		case done <- result{v, err}:
		case <-abandoned:
			late(v, err)
		}
	}()
	select {
	case r := <-done:
		return r.v, r.err
	case <-ctx.Done():
		select {
		case r := <-done: // answered as ctx ended: select picks either, the answer must win
			return r.v, r.err
		default:
		}
		close(abandoned)
		return zero, ctx.Err()
	}
}

// open connects and initializes one session (detached: a session opened
// after the caller gave up is closed).
func (t *mcpHTTPTransport) open(ctx context.Context) (*mcp.ClientSession, error) {
	return detach(t, ctx, func() (*mcp.ClientSession, error) {
		return t.client.Connect(ctx, &mcp.StreamableClientTransport{
			Endpoint:             t.endpoint,
			HTTPClient:           t.http,
			MaxRetries:           -1, // a dropped stream is an error now, not a reconnect loop
			DisableStandaloneSSE: true,
			MaxEventSize:         t.maxEvent,
		}, nil)
	}, func(s *mcp.ClientSession, err error) {
		if err == nil {
			s.Close() // opened as the deadline passed: nobody holds it
		}
	})
}

// drop forgets a failed session so the next Ask reconnects, and closes it
// in the background (Close waits for that). When the session is no longer
// the current one (Close or another failed call took it), nothing is left
// to do.
func (t *mcpHTTPTransport) drop(s *mcp.ClientSession) {
	t.mu.Lock()
	if t.session != s {
		t.mu.Unlock()
		return
	}
	t.session = nil
	t.closing.Add(1) // under mu, before Close can set closed and Wait
	t.mu.Unlock()
	go func() {
		defer t.closing.Done()
		s.Close()
	}()
}

// Ask calls the plugin's tool once.
func (t *mcpHTTPTransport) Ask(ctx context.Context, req *AskRequest) (*AskResponse, error) {
	if err := ctx.Err(); err != nil {
		return nil, t.errf(KindDeadlineExceeded, "the call ended (%v) before it was sent", err)
	}
	if t.bare.Load() {
		return t.askBare(ctx, req)
	}
	rec := &httpFailure{}
	ctx = context.WithValue(ctx, httpFailureKey{}, rec)
	s, err := t.connect(ctx, rec)
	if err != nil {
		if errors.Is(err, errBareServer) {
			t.switchToBare()
			return t.askBare(ctx, req)
		}
		return nil, err
	}
	notes := notesOf(ctx)
	notes.setMCPSession(s.ID()) // "" for a stateless server: then none is recorded
	res, err := t.call(ctx, s, req)
	if err != nil && neverSent(err) && ctx.Err() == nil {
		// The session's connection was already shutting down (a server that
		// dropped an earlier connection can break the next session's first
		// POST on a stale keep-alive connection), so the request was never
		// written: the plugin cannot have acted on it, and one attempt on a
		// fresh session keeps the single-attempt promise.
		t.drop(s)
		if s, err = t.connect(ctx, rec); err != nil {
			return nil, err
		}
		notes.setMCPSession(s.ID())
		res, err = t.call(ctx, s, req)
	}
	if err != nil {
		t.drop(s)
		return nil, t.failure(ctx, fmt.Sprintf("calling tool %q", t.tool), err, rec)
	}
	return t.decode(res)
}

// call is one tools/call on s (detached).
func (t *mcpHTTPTransport) call(ctx context.Context, s *mcp.ClientSession, req *AskRequest) (*mcp.CallToolResult, error) {
	return detach(t, ctx, func() (*mcp.CallToolResult, error) {
		return s.CallTool(ctx, &mcp.CallToolParams{Name: t.tool, Arguments: req})
	}, func(*mcp.CallToolResult, error) {})
}

// neverSent reports whether a CallTool error means the request was refused
// before it was written: the SDK's connection was already closing.
func neverSent(err error) bool {
	return errors.Is(err, mcp.ErrConnectionClosed) && strings.Contains(err.Error(), "client is closing")
}

// decode turns a tool result into an AskResponse.
func (t *mcpHTTPTransport) decode(res *mcp.CallToolResult) (*AskResponse, error) {
	if res == nil {
		return nil, t.errf(KindTransportError, "tool %q returned no result", t.tool)
	}
	text, hasText := firstText(res.Content)
	if res.IsError {
		return nil, t.toolError(text, hasText)
	}
	var raw []byte
	var from string
	switch {
	case res.StructuredContent != nil:
		// The SDK decodes structuredContent into Go values, which loses the
		// plugin's bytes (key order, number spelling). When the text content
		// carries the same JSON, as servers are told to send, its bytes are
		// the answer: the submission stays byte-verbatim.
		raw, from = []byte(text), "structuredContent"
		if !hasText || !sameJSON(text, res.StructuredContent) {
			b, err := json.Marshal(res.StructuredContent)
			if err != nil {
				return nil, t.errf(KindTransportError, "tool %q structuredContent cannot be encoded: %v", t.tool, err)
			}
			raw = b
		}
	case hasText:
		raw, from = []byte(text), "text content"
	default:
		return nil, t.noAnswer()
	}
	return t.askResponse(raw, from)
}

// toolError is the failure of a tool result marked isError, quoting its
// first text item; both wires word it the same.
func (t *mcpHTTPTransport) toolError(text string, hasText bool) *AskError {
	if !hasText {
		text = "(no text content)"
	}
	return t.errf(KindTransportError, "tool %q reported an error (isError): %s", t.tool, childproc.Snippet(t.redact, text))
}

// noAnswer is the failure of a tool result holding neither
// structuredContent nor a text item.
func (t *mcpHTTPTransport) noAnswer() *AskError {
	return t.errf(KindTransportError, "tool %q answered with neither structuredContent nor a text content; it must return the AskResponse JSON in one of them", t.tool)
}

// askResponse decodes raw, read from the result's from ("text content",
// "structuredContent"), as the AskResponse.
func (t *mcpHTTPTransport) askResponse(raw []byte, from string) (*AskResponse, error) {
	var r AskResponse
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, t.errf(KindTransportError, "tool %q %s is not an AskResponse JSON object (%s): %q", t.tool, from, jsonvalue.Reason(raw, err), childproc.Snippet(t.redact, string(raw)))
	}
	return &r, nil
}

// sameJSON reports whether text holds the JSON value v (as decoded into
// any: maps, slices, float64, string, bool, nil).
func sameJSON(text string, v any) bool {
	if len(text) == 0 || (text[0] != '{' && text[0] != '[') {
		return false
	}
	var tv any
	if json.Unmarshal([]byte(text), &tv) != nil {
		return false
	}
	return reflect.DeepEqual(tv, v)
}

func firstText(cs []mcp.Content) (string, bool) {
	for _, c := range cs {
		if tc, ok := c.(*mcp.TextContent); ok {
			return tc.Text, true
		}
	}
	return "", false
}

// failure classifies a client error: deadline_exceeded when ctx ended,
// transport_error otherwise.
func (t *mcpHTTPTransport) failure(ctx context.Context, doing string, err error, rec *httpFailure) *AskError {
	if cerr := ctx.Err(); cerr != nil || errors.Is(err, context.DeadlineExceeded) {
		cerr = cmp.Or(cerr, context.DeadlineExceeded)
		return t.errf(KindDeadlineExceeded, "no answer from %s before the call's deadline (%v) while %s", t.endpoint, cerr, doing)
	}
	return t.errf(KindTransportError, "%s at %s failed: %v%s", doing, t.endpoint, err, childproc.Snippet(t.redact, rec.String()))
}

func (t *mcpHTTPTransport) errf(kind Kind, format string, args ...any) *AskError {
	return pluginError(t.redact, "mcp_http plugin "+t.alias, kind, format, args...)
}

// Close ends the MCP session and releases idle connections. Idempotent.
func (t *mcpHTTPTransport) Close() error {
	var s *mcp.ClientSession
	if !closeonce.Mark(&t.mu, &t.closed, func() { s, t.session = t.session, nil }) {
		return nil
	}
	if s != nil {
		// Ending the session is a DELETE; a server that does not answer it
		// within the grace period is cut off.
		done := make(chan struct{})
		go func() {
			s.Close()
			close(done)
		}()
		select {
		case <-done:
		case <-time.After(mcpCloseGrace):
			t.shutdown()
			<-done
		}
	}
	t.shutdown()
	t.closing.Wait()
	t.base.CloseIdleConnections()
	return nil
}
