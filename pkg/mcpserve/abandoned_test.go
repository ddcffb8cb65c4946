package mcpserve

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// blocked is an mcp serve --http whose upstream answers only once
// release runs, with one session initialized.
type blocked struct {
	s       *Server
	up      *blockingUpstream
	ts      *httptest.Server
	session string
	release func()
}

// startBlocked starts a blocked server with opts (StoryPath set here).
func startBlocked(t *testing.T, opts Options) *blocked {
	t.Helper()
	h := &blocked{up: &blockingUpstream{release: make(chan struct{})}}
	_, opts.StoryPath = writeStory(t, storyYAML(h.up.serve(t)))
	s, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	var once sync.Once
	h.release = func() { once.Do(func() { close(h.up.release) }) }
	h.s, h.ts = s, httptest.NewServer(s.HTTPHandler(""))
	t.Cleanup(h.ts.Close)
	_, h.session, _ = post(t, h.ts.URL, "", initBody)
	post(t, h.ts.URL, h.session, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return h
}

// callAndWalkAway posts a tools/call in session id and drops the
// connection once the server has the request (the answer is never read):
// over HTTP that is no cancellation, so the call runs or waits on.
func callAndWalkAway(t *testing.T, url, id string, n int, arrived func() bool) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	body := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"kitsoki_agent_remote_ask","arguments":{"prompt":"hi"}}}`, n)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set(sessionHeader, id)
	req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	done := make(chan struct{})
	go func() {
		defer close(done)
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
		}
	}()
	waitUntil(t, "received the call", arrived)
	cancel()
	<-done
}

// Calls whose clients walked away wait for a slot in bounded numbers: at
// most waitingPerSlot per slot, the next one refused at once naming
// --max-calls (each used to wait, a goroutine and its arguments, without
// end: 256 calls posted and dropped in a minute were all still waiting).
func TestAbandonedCallsWaitBounded(t *testing.T) {
	h := startBlocked(t, Options{MaxCalls: 1})
	defer h.release()
	s, up, ts, id := h.s, h.up, h.ts, h.session
	callAndWalkAway(t, ts.URL, id, 10, func() bool { return up.inflight.Load() == 1 })
	for i := range waitingPerSlot {
		callAndWalkAway(t, ts.URL, id, 11+i, func() bool { return s.waiting.Load() == int64(i+1) })
	}
	type answer struct {
		code int
		body string
	}
	answered := make(chan answer, 1)
	go func() {
		code, _, body := post(t, ts.URL, id, `{"jsonrpc":"2.0","id":99,"method":"tools/call","params":{"name":"kitsoki_agent_remote_ask","arguments":{"prompt":"hi"}}}`)
		answered <- answer{code, body}
	}()
	var code int
	var body string
	select {
	case a := <-answered:
		code, body = a.code, a.body
	case <-time.After(time.Minute): // a bound on the wait, not a timing assumption
		h.release()
		t.Fatalf("a call past %d waiting was queued too", waitingPerSlot)
	}
	if code != http.StatusOK || !strings.Contains(body, "calls are waiting for a call slot already") || !strings.Contains(body, "--max-calls") {
		t.Fatalf("a call past %d waiting: %d %s; want a tool error naming --max-calls", waitingPerSlot, code, body)
	}
	if w := s.waiting.Load(); w != waitingPerSlot {
		t.Fatalf("%d calls waiting, want %d", w, waitingPerSlot)
	}
}

// A session ended for idleness while its walked-away calls still run
// does not hold the server: a new session is answered, and so are the
// other sessions' requests (its Close, which waits for those calls, ran
// under the lock every request takes: the next initialize hung, and
// every request after it).
func TestIdleSessionWithCallsInFlightEnds(t *testing.T) {
	clock := &fakeClock{t: time.Unix(1_000_000, 0)}
	h := startBlocked(t, Options{MaxSessions: 2, SessionIdle: time.Hour, Now: clock.now, MaxCalls: 1})
	defer h.release()
	s, up, ts, walked, release := h.s, h.up, h.ts, h.session, h.release
	callAndWalkAway(t, ts.URL, walked, 10, func() bool { return up.inflight.Load() == 1 })
	callAndWalkAway(t, ts.URL, walked, 11, func() bool { return s.waiting.Load() == 1 })
	_, other, _ := post(t, ts.URL, "", initBody)
	clock.add(2 * time.Hour)
	post(t, ts.URL, other, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)

	answered := make(chan int, 2)
	go func() { code, _, _ := post(t, ts.URL, "", initBody); answered <- code }()
	select {
	case code := <-answered:
		if code != http.StatusOK {
			t.Fatalf("a new session in place of the idle one: %d, want 200", code)
		}
	case <-time.After(time.Minute): // a bound on the hang, not a timing assumption
		release() // let the test end
		t.Fatal("a new session hung while the idle session's calls ran")
	}
	if code, _, body := post(t, ts.URL, other, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`); code != http.StatusOK {
		t.Fatalf("another session's request: %d %s", code, body)
	}
}
