package mcpserve

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// HTTPLimits bounds what clients can hold of the HTTP server ([Server.Serve]):
// connections, and how long a request's headers, a request's body and an
// idle connection may take. A zero field takes its default.
type HTTPLimits struct {
	// ReadHeader is how long a client may take to send a request's
	// headers (DefaultReadHeader).
	ReadHeader time.Duration
	// Body is how long a client may take to send a request's body, from
	// the end of its headers (DefaultBodyRead). It does not bound a
	// response: a GET event stream or a call's answer lasts as long as
	// it needs.
	Body time.Duration
	// Idle is how long a kept-alive connection may wait for its next
	// request (DefaultIdle).
	Idle time.Duration
	// MaxConns is how many connections are open at once (0 = the larger
	// of DefaultMaxConns and 4 per session of MaxSessions); one more is
	// answered 503 and closed.
	MaxConns int
}

// The defaults of [HTTPLimits].
const (
	DefaultReadHeader = 10 * time.Second
	DefaultBodyRead   = 30 * time.Second
	DefaultIdle       = 2 * time.Minute
	DefaultMaxConns   = 256
)

// MaxRequestBody is the largest request body read (the SDK's own cap): a
// larger one is answered 413.
const MaxRequestBody = mcp.DefaultMaxRequestBodyBytes

// withDefaults fills the zero fields of l; maxSessions is the server's
// session cap.
func (l HTTPLimits) withDefaults(maxSessions int) HTTPLimits {
	l.ReadHeader = cmp.Or(max(l.ReadHeader, 0), DefaultReadHeader)
	l.Body = cmp.Or(max(l.Body, 0), DefaultBodyRead)
	l.Idle = cmp.Or(max(l.Idle, 0), DefaultIdle)
	l.MaxConns = cmp.Or(max(l.MaxConns, 0), max(DefaultMaxConns, 4*maxSessions))
	return l
}

// Serve serves [Server.HTTPHandler] on ln until ctx ends, then shuts the
// server down (open streams get five seconds). Every connection is
// bounded by Options.HTTP: a client that opens connections without end,
// sends headers or a body a byte a minute, or keeps a connection idle,
// holds no goroutine or memory past those limits.
func (s *Server) Serve(ctx context.Context, ln net.Listener, token string) error {
	lim := s.opts.HTTP.withDefaults(cmp.Or(max(s.opts.MaxSessions, 0), DefaultMaxSessions))
	// No ReadTimeout or WriteTimeout: either would end a long-lived
	// event stream. The body's deadline is set per request (bodyDeadline).
	hs := &http.Server{Handler: s.HTTPHandler(token), ReadHeaderTimeout: lim.ReadHeader, IdleTimeout: lim.Idle}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(newConnLimit(ln, lim.MaxConns)) }()
	select {
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = hs.Shutdown(sctx)
		_ = hs.Close()
		return nil
	case err := <-errc:
		return err
	}
}

// bodyDeadline gives a request with a body limit to arrive in whole: the
// connection's read deadline is set before anything else runs (so an
// unauthorized request's unread body cannot hold the connection either)
// and cleared by readBody once the body is read.
func bodyDeadline(next http.Handler, limit time.Duration) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Body != nil && r.Body != http.NoBody {
			_ = http.NewResponseController(w).SetReadDeadline(time.Now().Add(limit))
		}
		next.ServeHTTP(w, r)
	})
}

// readBody reads a request's body in whole, at most MaxRequestBody bytes
// by the deadline bodyDeadline set, then clears the deadline so that the
// response (an event stream, a long call) is not cut, and hands next the
// bytes read. The SDK's refusal of a POST body that is no JSON-RPC
// message is worded again to name the place (rewordAnswer).
func readBody(next http.Handler, limit time.Duration) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Body == nil || r.Body == http.NoBody {
			next.ServeHTTP(w, r)
			return
		}
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxRequestBody))
		if err != nil {
			w.Header().Set("Connection", "close")
			if _, ok := errors.AsType[*http.MaxBytesError](err); ok {
				http.Error(w, fmt.Sprintf("kitsoki mcp serve: the request body is over %d bytes", MaxRequestBody), http.StatusRequestEntityTooLarge)
				return
			}
			http.Error(w, fmt.Sprintf("kitsoki mcp serve: the request body did not arrive within %s: %v", limit, err), http.StatusRequestTimeout)
			return
		}
		if batchOver(body) { // see maxBatch
			http.Error(w, fmt.Sprintf("kitsoki mcp serve: the request body is a batch of more than %d messages; send one JSON-RPC message per request", maxBatch), http.StatusBadRequest)
			return
		}
		_ = http.NewResponseController(w).SetReadDeadline(time.Time{})
		r.Body = io.NopCloser(bytes.NewReader(body))
		if r.Method != http.MethodPost {
			next.ServeHTTP(w, r)
			return
		}
		m := &rewordAnswer{ResponseWriter: w, body: body}
		next.ServeHTTP(m, r)
		m.finish()
	})
}
