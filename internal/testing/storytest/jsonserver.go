package storytest

import (
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
)

// JSONServer is a loopback HTTP server, closed when t ends, that answers
// every request with the JSON body(r) and counts in hits the requests it
// answered.
func JSONServer(t testing.TB, body func(r *http.Request) string) (srv *httptest.Server, hits *atomic.Int64) {
	hits = new(atomic.Int64)
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, body(r))
	}))
	t.Cleanup(srv.Close)
	return srv, hits
}
