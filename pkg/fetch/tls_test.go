package fetch

import (
	"encoding/pem"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A TLS-intercepting corporate proxy or mirror: its CA comes from SSL_CERT_FILE.
func TestSSLCertFileIsTrusted(t *testing.T) {
	data := randomData(10<<10, 30)
	fs := newFileServer(t, data)
	tlsSrv := newTLSFileServer(t, fs)
	p, err := LoadPins(writeOverlay(t, "models:\n  m:\n    id: m\n    url: "+tlsSrv.URL+"/m.gguf\n    sha256: "+sum256(data)+"\n"))
	if err != nil {
		t.Fatal(err)
	}
	a, _ := p.Model("m")

	t.Setenv("SSL_CERT_FILE", filepath.Join(t.TempDir(), "none.pem"))
	if _, err := defaultHTTPClient(); err == nil || !strings.Contains(err.Error(), "SSL_CERT_FILE") {
		t.Fatalf("missing SSL_CERT_FILE accepted: %v", err)
	}

	t.Setenv("SSL_CERT_FILE", "")
	client, err := defaultHTTPClient()
	if err != nil {
		t.Fatal(err)
	}
	f := &Fetcher{CacheDir: t.TempDir(), HTTPClient: client, Retries: 1}
	if _, err := f.Ensure(ctxT(t), a, EnsureOptions{}); err == nil || !strings.Contains(err.Error(), "certificate") {
		t.Fatalf("untrusted server accepted: %v", err)
	}

	ca := filepath.Join(t.TempDir(), "ca.pem")
	os.WriteFile(ca, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: tlsSrv.Certificate().Raw}), 0o644)
	t.Setenv("SSL_CERT_FILE", ca)
	client, err = defaultHTTPClient()
	if err != nil {
		t.Fatal(err)
	}
	f.HTTPClient = client
	if _, err := f.Ensure(ctxT(t), a, EnsureOptions{}); err != nil {
		t.Fatal(err)
	}
}

// A Fetcher left to build its own client refuses a bad SSL_CERT_FILE with
// the variable's name before any request, rather than falling back to the
// default certificate pool without a word.
func TestBadSSLCertFileStopsTheDownload(t *testing.T) {
	data := randomData(4<<10, 31)
	fs := newFileServer(t, data)
	p, err := LoadPins(writeOverlay(t, "models:\n  m:\n    id: m\n    url: "+fs.url("m.gguf")+"\n    sha256: "+sum256(data)+"\n"))
	if err != nil {
		t.Fatal(err)
	}
	a, _ := p.Model("m")
	bad := filepath.Join(t.TempDir(), "bad.pem")
	os.WriteFile(bad, []byte("not a certificate\n"), 0o644)
	t.Setenv("SSL_CERT_FILE", bad)
	f := &Fetcher{CacheDir: t.TempDir(), Retries: 1}
	if _, err := f.Ensure(ctxT(t), a, EnsureOptions{}); err == nil || !strings.Contains(err.Error(), "SSL_CERT_FILE "+bad) {
		t.Fatalf("a bad SSL_CERT_FILE was not the error: %v", err)
	}
	wantTraffic(t, fs, 0, 0, "no request goes out with a bad SSL_CERT_FILE")
}
