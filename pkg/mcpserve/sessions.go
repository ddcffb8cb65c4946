package mcpserve

import (
	"cmp"
	"fmt"
	"net/http"
	"sync"
	"time"
)

// DefaultMaxSessions is how many HTTP sessions are open at once when
// Options.MaxSessions is 0.
const DefaultMaxSessions = 64

// DefaultSessionIdle is how long an HTTP session may go without a request
// before it is ended, when Options.SessionIdle is 0.
const DefaultSessionIdle = 30 * time.Minute

// sessionHeader names an HTTP session (MCP streamable HTTP).
const sessionHeader = "Mcp-Session-Id"

// sessions bounds the SDK's HTTP sessions, which it keeps until a client
// ends one (DELETE): at most max are open, and one that had no request
// under way for idle is ended when a new one is asked for, so a client
// that opens sessions and walks away cannot grow the server without bound.
// The clock is Options.Now.
type sessions struct {
	s    *Server
	max  int
	idle time.Duration
	now  func() time.Time

	mu       sync.Mutex
	seen     map[string]*sessionUse // by session id
	closing  map[string]bool        // sessions expire ended, still closing
	starting int                    // new-session requests under way
}

type sessionUse struct {
	last   time.Time // end of its last request (its start while one runs)
	active int       // requests under way
}

func newSessions(s *Server) *sessions {
	now := s.opts.Now
	if now == nil {
		now = time.Now
	}
	return &sessions{s: s, max: cmp.Or(max(s.opts.MaxSessions, 0), DefaultMaxSessions),
		idle: cmp.Or(max(s.opts.SessionIdle, 0), DefaultSessionIdle), now: now, seen: map[string]*sessionUse{}, closing: map[string]bool{}}
}

// wrap admits a request to next: a request naming no session (it opens
// one) only while fewer than max are open; a request of a session marks it
// in use until it ends.
func (ss *sessions) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := r.Header.Get(sessionHeader)
		if id == "" && r.Method == http.MethodPost {
			if !ss.admit() {
				w.Header().Set("Retry-After", "60")
				http.Error(w, fmt.Sprintf("kitsoki mcp serve: %d sessions are open, the most --max-sessions allows; end one (HTTP DELETE with its %s) or wait until one has had no request for %s",
					ss.max, sessionHeader, ss.idle), http.StatusServiceUnavailable)
				return
			}
			next.ServeHTTP(w, r)
			ss.started(w.Header().Get(sessionHeader))
			return
		}
		if r.Method == http.MethodDelete && id != "" {
			ss.s.bySession.end(id) // the client closes it: its calls' answers have no reader
		}
		ss.use(id, 1)
		defer ss.use(id, -1)
		next.ServeHTTP(w, r)
	})
}

// admit reserves a place for a new session, ending idle ones first when
// the sessions are at the cap.
func (ss *sessions) admit() bool {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	open := ss.sync()
	if open+ss.starting >= ss.max {
		open = ss.expire()
	}
	if open+ss.starting >= ss.max {
		return false
	}
	ss.starting++
	return true
}

// started ends a new-session request: id (empty when none was opened) is
// now open.
func (ss *sessions) started(id string) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	ss.starting--
	if id != "" && ss.seen[id] == nil {
		ss.seen[id] = &sessionUse{last: ss.now()}
	}
}

// use counts a request of session id starting (+1) or ending (-1).
func (ss *sessions) use(id string, delta int) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if u := ss.seen[id]; u != nil {
		u.active += delta
		u.last = ss.now()
	}
}

// sync makes seen the SDK's open HTTP sessions (those with an id; a stdio
// session has none) and returns their number (ss.mu held).
func (ss *sessions) sync() int {
	live := map[string]bool{}
	for c := range ss.s.mcp.Sessions() {
		if id := c.ID(); id != "" && !ss.closing[id] {
			live[id] = true
			if ss.seen[id] == nil {
				ss.seen[id] = &sessionUse{last: ss.now()}
			}
		}
	}
	for id := range ss.seen {
		if !live[id] {
			delete(ss.seen, id)
		}
	}
	return len(live)
}

// expire ends the sessions with no request under way for idle and returns
// how many stay open (ss.mu held). Its tool calls, which a client that
// walked away leaves running or waiting for a slot, are cancelled first
// (sessionCalls). A session's Close waits for them: it runs on its own
// goroutine, and the session is no longer counted (closing). Closed under ss.mu, one such session held every request of
// every session until its calls ended.
func (ss *sessions) expire() int {
	now := ss.now()
	for c := range ss.s.mcp.Sessions() {
		u := ss.seen[c.ID()]
		if u != nil && u.active == 0 && now.Sub(u.last) >= ss.idle {
			delete(ss.seen, c.ID())
			ss.closing[c.ID()] = true
			ss.s.bySession.end(c.ID())
			go func() {
				defer func() {
					ss.mu.Lock()
					delete(ss.closing, c.ID())
					ss.mu.Unlock()
				}()
				defer ss.s.survive("ending idle session "+c.ID(), "its close")
				_ = c.Close()
			}()
		}
	}
	return ss.sync()
}
