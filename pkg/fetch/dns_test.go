package fetch

import (
	"context"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
)

// A host name that does not resolve (an offline box, a mistyped mirror)
// fails at once, as the existing engine's fetch does, instead of waiting
// through every retry: the resolver's "no such host" is an answer, not a
// transient failure. The dialer stands in for the resolver so that no
// lookup leaves the machine.
func TestUnknownHostIsNotRetried(t *testing.T) {
	data := randomData(1000, 70)
	fs := newFileServer(t, data)
	var dials atomic.Int32
	f := newTestFetcher(t)
	f.HTTPClient = &http.Client{Transport: &http.Transport{
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			dials.Add(1)
			return nil, &net.OpError{Op: "dial", Net: network, Err: &net.DNSError{Err: "no such host", Name: "mirror.invalid", IsNotFound: true}}
		},
	}}
	_, err := f.Ensure(ctxT(t), testModel(t, fs, data), EnsureOptions{})
	if err == nil || !strings.Contains(err.Error(), "no such host") {
		t.Fatalf("err = %v", err)
	}
	if n := dials.Load(); n != 1 {
		t.Fatalf("%d lookups of a host that does not exist, want 1", n)
	}
}
