package mcpserve

import (
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"kitsoki/pkg/agent"
)

// A session's calls are cancelled when the session ends, closed by its
// client (DELETE) or ended for idleness to make room for a new one: the
// call upstream has not answered fails at once, the call waiting for a
// slot stops waiting, and neither runs on to the call timeout (both did,
// each holding a slot, for no one to read the answer).
func TestEndedSessionCancelsItsCalls(t *testing.T) {
	for _, how := range []string{"closed", "reaped"} {
		t.Run(how, func(t *testing.T) {
			var failed, completed atomic.Int64
			sink := agent.SinkFunc(func(ev agent.Event) error {
				switch ev.Kind {
				case agent.EventCallError:
					failed.Add(1)
				case agent.EventCallComplete:
					completed.Add(1)
				}
				return nil
			})
			clock := &fakeClock{t: time.Unix(1_000_000, 0)}
			h := startBlocked(t, Options{MaxCalls: 1, MaxSessions: 1, SessionIdle: time.Hour, Now: clock.now, Sink: sink})
			defer h.release()
			callAndWalkAway(t, h.ts.URL, h.session, 10, func() bool { return h.up.inflight.Load() == 1 })
			callAndWalkAway(t, h.ts.URL, h.session, 11, func() bool { return h.s.waiting.Load() == 1 })
			deleted := make(chan int, 1)
			switch how {
			case "closed":
				// The SDK's close waits for the session's calls: the DELETE is
				// answered once they end (it hung while they ran).
				go func() { deleted <- deleteSession(h.ts.URL, h.session) }()
			case "reaped":
				// The walked-away requests end on the server once it sees
				// their connections closed: until then the session is in
				// use, and its hour of idleness counts from then.
				waitUntil(t, "opened a session in place of the idle one", func() bool {
					clock.add(2 * time.Hour)
					code, _, _ := post(t, h.ts.URL, "", initBody)
					return code == http.StatusOK
				})
			}
			waitUntil(t, "cancelled the session's running call", func() bool { return failed.Load() >= 1 })
			waitUntil(t, "ended the session's waiting call", func() bool { return h.s.waiting.Load() == 0 })
			if n := completed.Load(); n != 0 {
				t.Fatalf("%d calls of the ended session completed", n)
			}
			if how == "closed" {
				select {
				case code := <-deleted:
					if code >= 300 {
						t.Fatalf("DELETE session: %d", code)
					}
				case <-time.After(time.Minute): // a bound on a hang, not a timing assumption
					t.Fatal("the DELETE is not answered")
				}
			}
		})
	}
}

// deleteSession closes session id as a client does (HTTP DELETE) and
// returns the status (0 when the request failed).
func deleteSession(url, id string) int {
	req, err := http.NewRequest(http.MethodDelete, url, nil)
	if err != nil {
		return 0
	}
	req.Header.Set(sessionHeader, id)
	req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0
	}
	resp.Body.Close()
	return resp.StatusCode
}
