package mcpserve

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeClock is a clock the test moves.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *fakeClock) add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

const initBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`

// post sends one JSON-RPC message over real loopback HTTP, in session id
// when not empty, and returns the status, the session id answered and the
// body.
func post(t *testing.T, url, id, body string) (int, string, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if id != "" {
		req.Header.Set(sessionHeader, id)
		req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header.Get(sessionHeader), string(b)
}

// A client that opens sessions and walks away cannot grow mcp serve
// --http without bound: the SDK keeps every session until its client
// DELETEs it, some 12 KB each (5,000 initializes from one loop took the
// server from 22 to 81 MB, and nothing ended them). At most MaxSessions
// are open; one more is refused with a 503 naming the flag until a
// session has had no request for SessionIdle, by the server's clock, and
// is ended (its id is then unknown: 404, and the client initializes
// again). A session in use is never ended.
func TestHTTPSessionsBounded(t *testing.T) {
	_, dir := writeStory(t, storyYAML(upstream(t)))
	clock := &fakeClock{t: time.Unix(1_000_000, 0)}
	s, err := New(Options{StoryPath: dir, MaxSessions: 3, SessionIdle: time.Hour, Now: clock.now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	ts := httptest.NewServer(s.HTTPHandler(""))
	defer ts.Close()

	var ids []string
	for range 3 {
		code, id, body := post(t, ts.URL, "", initBody)
		if code != http.StatusOK || id == "" {
			t.Fatalf("initialize: %d %q %s", code, id, body)
		}
		ids = append(ids, id)
	}
	code, id, body := post(t, ts.URL, "", initBody)
	if code != http.StatusServiceUnavailable || id != "" || !strings.Contains(body, "--max-sessions") {
		t.Fatalf("a fourth session: %d %q %q; want 503 naming --max-sessions", code, id, body)
	}

	// half an hour on, the second session is used; an hour on, the first
	// and third have been idle for an hour and make way
	clock.add(30 * time.Minute)
	if code, _, body := post(t, ts.URL, ids[1], `{"jsonrpc":"2.0","method":"notifications/initialized"}`); code/100 != 2 {
		t.Fatalf("initialized in session 2: %d %s", code, body)
	}
	clock.add(30 * time.Minute)
	for range 2 {
		if code, id, body := post(t, ts.URL, "", initBody); code != http.StatusOK || id == "" {
			t.Fatalf("a session after an hour idle: %d %q %s", code, id, body)
		}
	}
	if code, _, body := post(t, ts.URL, "", initBody); code != http.StatusServiceUnavailable {
		t.Fatalf("a sixth session while three are open, none idle: %d %s", code, body)
	}
	if code, _, _ := post(t, ts.URL, ids[0], `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`); code != http.StatusNotFound {
		t.Fatalf("the ended session answered %d; want 404 (initialize again)", code)
	}
	if code, _, body := post(t, ts.URL, ids[1], `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`); code != http.StatusOK || !strings.Contains(body, "kitsoki_agent_remote") {
		t.Fatalf("the session in use was ended: %d %s", code, body)
	}
}
