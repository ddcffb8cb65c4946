//go:build unix

package sidecar

import (
	"net/http"
	"runtime"
	"strings"
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
	a := standintest.ServeArtifacts(t, standin)
	pins, err := fetch.LoadPins(a.Pins)
	if err != nil {
		t.Fatal(err)
	}
	f := &fetch.Fetcher{CacheDir: t.TempDir(), HTTPClient: &http.Client{}}

	run := func() (downloaded bool) {
		inst, err := f.EnsureLlamaServer(ctxT(t), pins, runtime.GOOS, runtime.GOARCH, fetch.EnsureOptions{})
		if err != nil {
			t.Fatal(err)
		}
		ma, err := pins.Model(a.Model)
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
	n := a.Hits()
	if run() || a.Hits() != n {
		t.Fatalf("warm run went to the network (%d -> %d requests)", n, a.Hits())
	}
}
