//go:build unix

package sidecar

import (
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"kitsoki/internal/testing/llamastandin/standintest"
)

// A configured port another server already holds (here one that answers
// /health 200, like a llama-server someone else started) is refused before
// the spawn: the sidecar must never take a foreign server's health for its
// own and send it the story's prompts.
func TestConfiguredPortInUseIsRefused(t *testing.T) {
	var foreign atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		foreign.Add(1)
		w.Write([]byte(`{"status":"ok"}`))
	}))
	t.Cleanup(other.Close)
	n := other.Listener.Addr().(*net.TCPAddr).Port
	portStr := strconv.Itoa(n)
	cfg, record := setup(t)
	cfg.Port = n
	s, err := Start(ctxT(t), cfg)
	if err == nil {
		s.Stop()
		t.Fatalf("the sidecar started on a port another server holds (it answered %d requests)", foreign.Load())
	}
	for _, want := range []string{"port " + portStr, "already in use", "port:"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
	if foreign.Load() != 0 {
		t.Errorf("the other server got %d requests", foreign.Load())
	}
	if _, err := os.Stat(record); err == nil {
		t.Errorf("llama-server was spawned (its record %s exists)", record)
	}
}

// Version runs the binary with the library directory first on
// LD_LIBRARY_PATH and returns what it prints; a binary whose loader fails
// reports the loader's words.
func TestVersionRunsTheBinaryOrQuotesTheLoader(t *testing.T) {
	dir := t.TempDir()
	v, err := Version(ctxT(t), standin, dir)
	if err != nil || v != "9444 (stand-in)" {
		t.Fatalf("Version = %q, %v", v, err)
	}
	t.Setenv(standintest.EnvRequireLib, "libllama.so.0")
	_, err = Version(ctxT(t), standin, dir)
	if err == nil || !strings.Contains(err.Error(), "libllama.so.0: cannot open shared object file") || !strings.Contains(err.Error(), "exit status 127") {
		t.Fatalf("missing library: %v", err)
	}
	os.WriteFile(filepath.Join(dir, "libllama.so.0"), []byte("lib"), 0o644)
	if v, err := Version(ctxT(t), standin, dir); err != nil || v == "" {
		t.Fatalf("with the library in libDir: %q, %v", v, err)
	}
}
