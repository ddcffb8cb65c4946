package fetch

import (
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// A server whose certificate the client does not trust (a TLS-intercepting
// proxy, a mirror with its own CA) fails once, not after six handshakes, and
// the message points at SSL_CERT_FILE.
func TestUntrustedCertificateIsNotRetriedAndNamesSSLCertFile(t *testing.T) {
	data := randomData(4<<10, 40)
	fs := newFileServer(t, data)
	var conns atomic.Int32
	srv := httptest.NewUnstartedServer(http.HandlerFunc(fs.serve))
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			conns.Add(1)
		}
	}
	srv.StartTLS()
	t.Cleanup(srv.Close)
	p, err := LoadPins(writeOverlay(t, "models:\n  m:\n    id: m\n    url: "+srv.URL+"/m.gguf\n    sha256: "+sum256(data)+"\n"))
	if err != nil {
		t.Fatal(err)
	}
	a, _ := p.Model("m")
	t.Setenv("SSL_CERT_FILE", "")
	client, err := defaultHTTPClient()
	if err != nil {
		t.Fatal(err)
	}
	f := &Fetcher{CacheDir: t.TempDir(), HTTPClient: client, Retries: 4, Backoff: 1}
	_, err = f.Ensure(ctxT(t), a, EnsureOptions{})
	if err == nil {
		t.Fatal("an untrusted server was accepted")
	}
	for _, want := range []string{"certificate", "not trusted", "SSL_CERT_FILE", "nothing was downloaded"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
	if n := conns.Load(); n != 1 {
		t.Errorf("%d connections: an untrusted certificate must not be retried", n)
	}
}

// HTTPS_PROXY naming a proxy that does not answer: the error names the
// proxy (credentials masked) and the variables that route around it. The
// environment's proxy is read once per process, so a child process runs
// the download.
func TestUnreachableProxyIsNamed(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := ln.Addr().String()
	ln.Close() // nothing listens there now: the proxy refuses connections
	overlay := writeOverlay(t, "models:\n  test-model:\n    id: test-model\n    url: https://kitsoki-proxy-test.invalid/m.gguf\n    sha256: "+sum256([]byte("x"))+"\n")
	out, err := childCmd(t, overlay, t.TempDir(), "test-model", "HTTPS_PROXY=http://user:s3cret@"+closed, "https_proxy=", "NO_PROXY=", "no_proxy=").CombinedOutput()
	if err == nil {
		t.Fatalf("download through a dead proxy succeeded: %s", out)
	}
	msg := string(out)
	for _, want := range []string{"proxyconnect", "the proxy http://***@" + closed + " ($HTTPS_PROXY)", "NO_PROXY"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error lacks %q:\n%s", want, msg)
		}
	}
	if strings.Contains(msg, "s3cret") {
		t.Errorf("the proxy's password is shown:\n%s", msg)
	}
}
