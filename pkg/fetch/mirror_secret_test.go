package fetch

import (
	"bytes"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// A mirror URL may carry credentials (https://user:token@mirror/…, as a
// private artifact store asks): they are sent, but no error, log line or
// message shows the token.
func TestMirrorCredentialsAreSentButNeverShown(t *testing.T) {
	const token = "s3cr3t-mirror-token"
	var sawAuth atomic.Bool
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if u, p, ok := r.BasicAuth(); ok && u == "ci" && p == token {
			sawAuth.Store(true)
		}
		if r.URL.Path == "/mirror/origin.example/ok.gguf" {
			w.Header().Set("Content-Length", "4")
			_, _ = w.Write([]byte("data"))
			return
		}
		http.NotFound(w, r)
	}))
	t.Cleanup(srv.Close)
	mirror := strings.Replace(srv.URL, "http://", "http://ci:"+token+"@", 1) + "/mirror"

	for _, file := range []string{"missing.gguf", "ok.gguf"} {
		p, err := LoadPins(writeOverlay(t, `models:
  m:
    id: m
    url: https://origin.example/`+file+`
    sha256: `+strings.Repeat("ab", 32)+`
`))
		if err != nil {
			t.Fatal(err)
		}
		a, _ := p.Model("m")
		var logs bytes.Buffer
		f := newTestFetcher(t)
		f.Mirror = mirror
		f.Logger = slog.New(slog.NewTextHandler(&logs, nil))
		_, err = f.Ensure(ctxT(t), a, EnsureOptions{})
		if err == nil {
			t.Fatalf("%s: no error", file)
		}
		if strings.Contains(err.Error(), token) || strings.Contains(logs.String(), token) {
			t.Errorf("%s: token shown:\nerr: %v\nlog: %s", file, err, logs.String())
		}
		if !strings.Contains(err.Error(), "xxxxx@") && file == "missing.gguf" {
			t.Errorf("error should still name the mirror (credentials masked): %v", err)
		}
	}
	if !sawAuth.Load() {
		t.Error("credentials were not sent to the mirror")
	}
	if _, err := MirrorURL("https://x/y", "ftp://ci:"+token+"@nope"); err == nil || strings.Contains(err.Error(), token) {
		t.Errorf("bad mirror error shows the token: %v", err)
	}
}

// A token given as the user name (no password) is masked too, also in the
// HTTP client's own error (which keeps user names).
func TestTokenAsUserNameIsMaskedInClientErrors(t *testing.T) {
	const token = "ghp_tokenAsUserName123"
	srv := httptest.NewServer(http.NotFoundHandler())
	addr := srv.Listener.Addr().String()
	srv.Close() // nothing listens there now: the client's dial error names the URL
	p, err := LoadPins(writeOverlay(t, `models:
  m:
    id: m
    url: https://origin.example/m.gguf
    sha256: `+strings.Repeat("ab", 32)+`
`))
	if err != nil {
		t.Fatal(err)
	}
	a, _ := p.Model("m")
	f := newTestFetcher(t)
	f.Retries = 1
	f.Mirror = "http://" + token + "@" + addr + "/mirror"
	_, err = f.Ensure(ctxT(t), a, EnsureOptions{})
	if err == nil || strings.Contains(err.Error(), token) || !strings.Contains(err.Error(), "xxxxx@") {
		t.Fatalf("err = %v", err)
	}
	for in, want := range map[string]string{
		"GET https://u:p@h/x: boom":      "GET https://xxxxx@h/x: boom",
		`"http://t@h" and ftp://a@b@c/d`: `"http://xxxxx@h" and ftp://xxxxx@c/d`,
		"https://h/a@b":                  "https://h/a@b",
		"no url here":                    "no url here",
	} {
		if got := hideUserinfo(in); got != want {
			t.Errorf("hideUserinfo(%q) = %q, want %q", in, got, want)
		}
	}
}
