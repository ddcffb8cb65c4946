package mcpserve

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"kitsoki/internal/testing/storytest"
	"kitsoki/pkg/agent"
)

// hangGuard bounds every wait of these tests on a connection: a limit
// that fails to fire fails the test instead of hanging it.
const hangGuard = time.Minute

// legitBodyLimit is the body limit of the tests whose own well-formed
// requests must beat it: long enough that a loaded machine never cuts a
// body sent in one write.
const legitBodyLimit = time.Second

// serveHTTP runs s.Serve on a loopback port with token (may be empty)
// until the test ends, and returns the address.
func serveHTTP(t *testing.T, s *Server, token string) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx, ln, token) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	return ln.Addr().String()
}

// dial opens a raw connection to addr, closed when the test ends.
func dial(t *testing.T, addr string) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	_ = c.SetDeadline(time.Now().Add(hangGuard))
	return c
}

// untilClosed reads c until the server closes it and returns what came.
// A read that times out is the hang guard: the server kept it open.
func untilClosed(t *testing.T, c net.Conn) string {
	t.Helper()
	b, err := io.ReadAll(c)
	if ne, ok := errors.AsType[net.Error](err); ok && ne.Timeout() {
		t.Fatalf("the server kept the connection open for %s; read so far %q", hangGuard, b)
	}
	return string(b)
}

func limitedServer(t *testing.T, lim HTTPLimits) *Server {
	t.Helper()
	_, dir := writeStory(t, storyYAML(upstream(t)))
	s, err := New(Options{StoryPath: dir, HTTP: lim})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// A client that sends its headers a byte at a time, or stops halfway,
// is cut off after ReadHeader.
func TestHTTPSlowHeadersAreCut(t *testing.T) {
	addr := serveHTTP(t, limitedServer(t, HTTPLimits{ReadHeader: 50 * time.Millisecond}), "")
	c := dial(t, addr)
	if _, err := io.WriteString(c, "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: appl"); err != nil {
		t.Fatal(err)
	}
	untilClosed(t, c)
}

// A body that does not arrive in whole within Body is answered 408 and
// the connection closed, with or without a token: the deadline is set
// before the token is checked, so an unauthorized request's body cannot
// hold the connection either.
func TestHTTPSlowBodyIsCut(t *testing.T) {
	for _, token := range []string{"", "s3cret"} {
		addr := serveHTTP(t, limitedServer(t, HTTPLimits{Body: 50 * time.Millisecond}), token)
		c := dial(t, addr)
		auth := ""
		if token != "" {
			auth = "Authorization: Bearer " + token + "\r\n"
		}
		if _, err := io.WriteString(c, "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"+auth+"Content-Length: 100\r\n\r\n{"); err != nil {
			t.Fatal(err)
		}
		got := untilClosed(t, c)
		if !strings.HasPrefix(got, "HTTP/1.1 408") || !strings.Contains(got, "did not arrive within 50ms") {
			t.Errorf("token %q: a slow body got %q; want 408 naming the limit", token, got)
		}
		// without the token the body is never read: the request is refused
		// and the connection, its body unread, closed
		bad := dial(t, addr)
		if _, err := io.WriteString(bad, "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\n{"); err != nil {
			t.Fatal(err)
		}
		if got := untilClosed(t, bad); token != "" && !strings.HasPrefix(got, "HTTP/1.1 401") {
			t.Errorf("no token: %q; want 401", got)
		}
	}
}

// A body over MaxRequestBody is refused with 413.
func TestHTTPBodyCapped(t *testing.T) {
	addr := serveHTTP(t, limitedServer(t, HTTPLimits{}), "")
	c := dial(t, addr)
	req := "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
	if _, err := io.WriteString(c, req); err != nil {
		t.Fatal(err)
	}
	chunk := strings.Repeat("x", 1<<20)
	go func() { // the server stops reading at the cap: writes then fail
		for range 8 {
			if _, err := io.WriteString(c, "100000\r\n"+chunk+"\r\n"); err != nil {
				return
			}
		}
	}()
	line, err := bufio.NewReader(c).ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "HTTP/1.1 413") {
		t.Fatalf("an 8 MiB body: %q %v; want 413", line, err)
	}
}

// A kept-alive connection with no next request is closed after Idle.
func TestHTTPIdleConnectionClosed(t *testing.T) {
	addr := serveHTTP(t, limitedServer(t, HTTPLimits{Idle: 50 * time.Millisecond}), "")
	c := dial(t, addr)
	if _, err := io.WriteString(c, "DELETE / HTTP/1.1\r\nHost: 127.0.0.1\r\nMcp-Session-Id: none\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	r := bufio.NewReader(c)
	resp, err := http.ReadResponse(r, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	_ = resp.Body.Close()
	if resp.Close {
		t.Fatalf("the server closed the connection itself (%s); the test needs one kept alive", resp.Status)
	}
	if rest, err := io.ReadAll(r); err != nil || len(rest) != 0 {
		t.Fatalf("after the answer: %q %v; want the connection closed", rest, err)
	}
}

// At most MaxConns connections are open: the next is answered 503 naming
// the limit and closed at once; when one closes, a new one is served.
func TestHTTPConnectionsCapped(t *testing.T) {
	addr := serveHTTP(t, limitedServer(t, HTTPLimits{MaxConns: 2}), "")
	first, second := dial(t, addr), dial(t, addr)
	got := untilClosed(t, dial(t, addr))
	if !strings.HasPrefix(got, "HTTP/1.1 503") || !strings.Contains(got, "2 connections are open") {
		t.Fatalf("a third connection got %q; want 503 naming the limit", got)
	}
	_ = second
	_ = first.Close()
	// the server sees the close when its read of the next request ends:
	// retry until it has (the hang guard bounds the loop)
	deadline := time.Now().Add(hangGuard)
	for {
		c := dial(t, addr)
		if _, err := io.WriteString(c, "DELETE / HTTP/1.1\r\nHost: 127.0.0.1\r\nMcp-Session-Id: none\r\nConnection: close\r\n\r\n"); err != nil {
			t.Fatal(err)
		}
		got := untilClosed(t, c)
		if !strings.HasPrefix(got, "HTTP/1.1 503") {
			if strings.Contains(got, "connections are open") || got == "" {
				t.Fatalf("after a close: %q", got)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no connection served after one of the two closed")
		}
		_ = c.Close()
	}
}

// No limit cuts a long-lived event stream (a read or write timeout on the
// whole connection would): a GET stream opened before a slow body timed
// out still carries the tool list change that follows it.
func TestHTTPEventStreamOutlivesBodyLimit(t *testing.T) {
	url := upstream(t)
	_, dir := writeStory(t, storyYAML(url))
	s, err := New(Options{StoryPath: dir, HTTP: HTTPLimits{Body: legitBodyLimit}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	addr := serveHTTP(t, s, "")
	base := "http://" + addr + "/"
	code, id, body := post(t, base, "", initBody)
	if code != http.StatusOK || id == "" {
		t.Fatalf("initialize: %d %s", code, body)
	}
	if code, _, body := post(t, base, id, `{"jsonrpc":"2.0","method":"notifications/initialized"}`); code/100 != 2 {
		t.Fatalf("initialized: %d %s", code, body)
	}
	stream := dial(t, addr)
	if _, err := io.WriteString(stream, "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\nMcp-Protocol-Version: 2025-06-18\r\nMcp-Session-Id: "+id+"\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	sr := bufio.NewReader(stream)
	resp, err := http.ReadResponse(sr, nil)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET stream: %v %v", resp, err)
	}

	slow := dial(t, addr)
	if _, err := io.WriteString(slow, "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 10\r\n\r\n{"); err != nil {
		t.Fatal(err)
	}
	untilClosed(t, slow) // the body limit has passed (TestHTTPSlowBodyIsCut checks the answer)

	// the stream has now been open longer than the body limit
	writeAtomic(t, filepath.Join(dir, "app.yaml"), storyYAML(url, "agent.helper"))
	if code, _, body := post(t, base, id, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`); code != http.StatusOK || !strings.Contains(body, "kitsoki_agent_helper_ask") {
		t.Fatalf("tools/list after the edit: %d %s", code, body)
	}
	events := bufio.NewReader(resp.Body)
	for {
		line, err := events.ReadString('\n')
		if err != nil {
			t.Fatalf("the event stream ended before the list change: %v", err)
		}
		if strings.Contains(line, "notifications/tools/list_changed") {
			return
		}
	}
}

// A tool call whose request body came at once but whose answer takes
// longer than the body limit is not cut (a write timeout would): the
// deadline is lifted once the body is read, and the answer is written
// whenever the call ends.
func TestHTTPLongCallOutlivesBodyLimit(t *testing.T) {
	entered, release := make(chan struct{}, 1), make(chan struct{})
	var once sync.Once
	url := storytest.MCPAsk(t, "slow", func(_ *mcp.CallToolRequest, ar agent.AskRequest) (*mcp.CallToolResult, error) {
		entered <- struct{}{}
		<-release
		return &mcp.CallToolResult{StructuredContent: map[string]any{"submission": map[string]any{"decision": "approve"}},
			Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, nil
	})
	t.Cleanup(func() { once.Do(func() { close(release) }) }) // before the agent server closes
	_, dir := writeStory(t, storyYAML(url))
	s, err := New(Options{StoryPath: dir, HTTP: HTTPLimits{Body: legitBodyLimit}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	addr := serveHTTP(t, s, "")
	base := "http://" + addr + "/"
	code, id, body := post(t, base, "", initBody)
	if code != http.StatusOK || id == "" {
		t.Fatalf("initialize: %d %s", code, body)
	}
	if code, _, body := post(t, base, id, `{"jsonrpc":"2.0","method":"notifications/initialized"}`); code/100 != 2 {
		t.Fatalf("initialized: %d %s", code, body)
	}
	// a raw POST, read to its end: the SDK's client would resume a cut
	// stream and hide the cut
	done := make(chan string, 1)
	go func() {
		req, _ := http.NewRequest(http.MethodPost, base, strings.NewReader(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"kitsoki_agent_remote_decide","arguments":{"prompt":"p"}}}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set(sessionHeader, id)
		req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			done <- err.Error()
			return
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		done <- fmt.Sprint(string(b), err)
	}()
	select {
	case <-entered:
	case <-time.After(hangGuard):
		t.Fatal("the call never reached the agent")
	}
	slow := dial(t, addr)
	if _, err := io.WriteString(slow, "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 10\r\n\r\n{"); err != nil {
		t.Fatal(err)
	}
	untilClosed(t, slow) // the body limit has passed while the call runs
	once.Do(func() { close(release) })
	var got string
	select {
	case got = <-done:
	case <-time.After(hangGuard):
		t.Fatal("the call did not end")
	}
	if !strings.Contains(got, `"decision":"approve"`) || strings.Contains(got, `"isError":true`) {
		t.Fatalf("a call longer than the body limit answered %q; want its result", got)
	}
}

// A POST body that is a batch (MCP before 2025-06-18) of more than
// maxBatch messages is refused with 400 naming the limit before the SDK
// reads it (it answers a batch only whole: each request of 90,000 in 4 MiB a
// goroutine and an answer held); a batch within it is served.
func TestHTTPBatchBounded(t *testing.T) {
	addr := serveHTTP(t, limitedServer(t, HTTPLimits{}), "")
	batch := func(n int) string {
		var b strings.Builder
		b.WriteString("\n[")
		for i := range n {
			if i > 0 {
				b.WriteString(",\n")
			}
			fmt.Fprintf(&b, `{"jsonrpc":"2.0","id":%d,"method":"tools/list"}`, i)
		}
		b.WriteString("]")
		return b.String()
	}
	post := func(body string) (int, string) {
		req, err := http.NewRequest(http.MethodPost, "http://"+addr+"/", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Mcp-Protocol-Version", "2025-03-26")
		resp, err := (&http.Client{Timeout: hangGuard}).Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	code, body := post(batch(50_000))
	if code != http.StatusBadRequest || !strings.Contains(body, "a batch of more than 64 messages") {
		t.Fatalf("a batch of 50,000: %d %q; want 400 naming the limit", code, body)
	}
	if code, body := post(batch(maxBatch)); strings.Contains(body, "a batch of more than") {
		t.Fatalf("a batch of %d: %d %q; want it past the bound", maxBatch, code, body)
	}
}
