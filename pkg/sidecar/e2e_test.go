//go:build unix

package sidecar

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"

	"kitsoki/internal/testing/llamastandin/standintest"
	"kitsoki/pkg/fetch"
)

// TestFetchExtractSpawnFromEmptyCache goes from an empty cache through
// download, verify, extract (SONAME links), spawn with LD_LIBRARY_PATH and
// health, to an answer; then a warm second start downloads nothing. The
// server is the llama-server stand-in packed like a llama.cpp release and
// served from loopback with its real sha256 through a pins overlay.
func TestFetchExtractSpawnFromEmptyCache(t *testing.T) {
	archive, archiveSum := standintest.ReleaseArchive(t, standin)
	model := []byte("GGUF stand-in weights")
	ms := sha256.Sum256(model)
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		switch r.URL.Path {
		case "/llama.tar.gz":
			w.Write(archive)
		case "/model.gguf":
			w.Write(model)
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	overlay := filepath.Join(t.TempDir(), "pins.yaml")
	os.WriteFile(overlay, []byte(fmt.Sprintf(`llama_server:
  %s/%s:
    id: llama-server-standin
    release: b9444
    url: %s/llama.tar.gz
    sha256: %s
    format: tar.gz
    members: [llama-server]
models:
  tiny:
    id: tiny
    url: %s/model.gguf
    sha256: %s
    size: %d
`, runtime.GOOS, runtime.GOARCH, srv.URL, archiveSum, srv.URL, hex.EncodeToString(ms[:]), len(model))), 0o644)
	pins, err := fetch.LoadPins(overlay)
	if err != nil {
		t.Fatal(err)
	}
	f := &fetch.Fetcher{CacheDir: t.TempDir(), HTTPClient: &http.Client{}}

	run := func() (downloaded bool) {
		inst, err := f.EnsureLlamaServer(ctxT(t), pins, runtime.GOOS, runtime.GOARCH, fetch.EnsureOptions{})
		if err != nil {
			t.Fatal(err)
		}
		ma, err := pins.Model("tiny")
		if err != nil {
			t.Fatal(err)
		}
		mres, err := f.Ensure(ctxT(t), ma, fetch.EnsureOptions{})
		if err != nil {
			t.Fatal(err)
		}
		cfg := Config{Bin: inst.Bin, Model: mres.Path, LibDir: inst.LibDir, HealthInterval: 20e6}
		if runtime.GOOS == "linux" {
			cfg.Env = []string{standintest.EnvRequireLib + "=libllama.so.0"}
		}
		s, err := Start(ctxT(t), cfg)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Stop()
		code, body := chat(t, s.URL(), `{"model":"tiny","messages":[{"role":"user","content":"decide"}],"response_format":{"type":"json_schema","json_schema":{"name":"submission","strict":true,"schema":{"type":"object","properties":{"verdict":{"enum":["approve","reject"]}},"required":["verdict"]}}}}`)
		if code != 200 || !strings.Contains(body, `{\"verdict\":\"approve\"}`) {
			t.Fatalf("answer %d %s", code, body)
		}
		return inst.Downloaded || mres.Downloaded
	}
	if !run() {
		t.Fatal("cold run downloaded nothing")
	}
	n := hits.Load()
	if run() || hits.Load() != n {
		t.Fatalf("warm run went to the network (%d -> %d requests)", n, hits.Load())
	}
}
