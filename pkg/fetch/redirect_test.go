package fetch

import (
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync/atomic"
	"testing"
)

// redirector is a real loopback server (TLS or plain) that answers every
// request with a 302 to the URL target returns, counting requests.
type redirector struct {
	srv      *httptest.Server
	requests atomic.Int64
}

func newRedirector(t *testing.T, tls bool, target func(r *http.Request) string) *redirector {
	rd := &redirector{}
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rd.requests.Add(1)
		http.Redirect(w, r, target(r), http.StatusFound)
	})
	if tls {
		rd.srv = httptest.NewTLSServer(h)
	} else {
		rd.srv = httptest.NewServer(h)
	}
	t.Cleanup(rd.srv.Close)
	return rd
}

// redirectedModel pins data at start's URL: the bytes come from wherever
// start redirects.
func redirectedModel(t *testing.T, start string, data []byte) *Artifact {
	t.Helper()
	p, err := LoadPins(writeOverlay(t, "models:\n  m:\n    id: m\n    url: "+start+"/m.gguf\n    sha256: "+sum256(data)+"\n"))
	if err != nil {
		t.Fatal(err)
	}
	a, _ := p.Model("m")
	return a
}

// A pinned https URL redirected to plain http is refused before a request
// goes out over http (what a package manager does: the sha256 pin guards
// the bytes, https guards who sees and can stall or swap them), in one
// stream and in parallel parts; it is not retried and leaves no part.
func TestRedirectFromHTTPSToHTTPRefused(t *testing.T) {
	data := randomData(200<<10, 40)
	for _, parts := range []int{1, 4} {
		plain := newFileServer(t, data)
		rd := newRedirector(t, true, func(r *http.Request) string { return plain.url("m.gguf") })
		f := newTestFetcher(t)
		f.HTTPClient = rd.srv.Client()
		f.Parts, f.PartThreshold = parts, 64<<10
		a := redirectedModel(t, rd.srv.URL, data)
		_, err := f.Ensure(ctxT(t), a, EnsureOptions{})
		if err == nil {
			t.Fatalf("parts=%d: a redirect from https to http was followed", parts)
		}
		for _, want := range []string{"redirect from " + rd.srv.URL + "/m.gguf to " + plain.url("m.gguf") + " refused", "https"} {
			if !strings.Contains(err.Error(), want) {
				t.Fatalf("parts=%d: err = %v\nwant it to say %q", parts, err, want)
			}
		}
		wantTraffic(t, plain, 0, 0, "nothing may be asked over http")
		if n := rd.requests.Load(); n != 1 {
			t.Fatalf("parts=%d: %d requests to the https server, want 1 (a refused redirect is not retried)", parts, n)
		}
		dest, _ := f.Path(a)
		if _, err := os.Stat(partPath(dest)); !os.IsNotExist(err) {
			t.Fatalf("parts=%d: a .part was left: %v", parts, err)
		}
	}
}

// Redirects that keep https (a release page to its CDN on another host),
// and plain-http mirrors redirecting within http, are followed.
func TestRedirectsKeepingTheSchemeAreFollowed(t *testing.T) {
	data := randomData(100<<10, 41)
	t.Run("https to https on another host", func(t *testing.T) {
		fs := newFileServer(t, data)
		cdn := newTLSFileServer(t, fs)
		rd := newRedirector(t, true, func(r *http.Request) string { return cdn.URL + "/blob" })
		f := newTestFetcher(t)
		f.HTTPClient = rd.srv.Client()
		res := ensureOK(t, f, redirectedModel(t, rd.srv.URL, data))
		wantContent(t, res.Path, data)
	})
	t.Run("http to http", func(t *testing.T) {
		fs := newFileServer(t, data)
		rd := newRedirector(t, false, func(r *http.Request) string { return fs.url("blob") })
		res := ensureOK(t, newTestFetcher(t), redirectedModel(t, rd.srv.URL, data))
		wantContent(t, res.Path, data)
	})
}

// A redirect loop stops at the 10th redirect with a message saying so, and is
// not retried (10 requests, not 10 per attempt).
func TestRedirectLoopStopsWithItsCount(t *testing.T) {
	data := randomData(1000, 42)
	rd := newRedirector(t, false, func(r *http.Request) string { return "/again" + r.URL.Path })
	_, err := newTestFetcher(t).Ensure(ctxT(t), redirectedModel(t, rd.srv.URL, data), EnsureOptions{})
	if err == nil || !strings.Contains(err.Error(), "10 redirects in a row, the limit") {
		t.Fatalf("err = %v, want it to name the redirect limit", err)
	}
	if n := rd.requests.Load(); n != 10 {
		t.Fatalf("%d requests, want 10 (the loop is not retried)", n)
	}
}
