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

// takenThenFree is a PickPort that hands out a port another program (the
// test's listener) holds for the first taken picks, then free ports; it
// counts its picks.
func takenThenFree(t *testing.T, taken int, picks *int) func(string) (int, error) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	held := ln.Addr().(*net.TCPAddr).Port
	return func(host string) (int, error) {
		*picks++
		if *picks <= taken {
			return held, nil
		}
		return freePort(host)
	}
}

// A picked port another program took before llama-server bound it (the
// race between the pick and the bind) is picked again: the server that
// could not bind exits, the port is seen held, and the next pick starts.
func TestPickedPortTakenBeforeTheBindIsPickedAgain(t *testing.T) {
	cfg, _ := setup(t)
	var picks int
	cfg.PickPort = takenThenFree(t, 2, &picks)
	s, err := Start(ctxT(t), cfg)
	if err != nil {
		t.Fatalf("start after two lost ports: %v", err)
	}
	defer s.Stop()
	if picks != 3 {
		t.Errorf("%d picks, want 3 (two taken, one free)", picks)
	}
	if code, _ := chat(t, s.URL(), `{"messages":[{"role":"user","content":"hi"}]}`); code != 200 {
		t.Errorf("chat on %s: status %d", s.URL(), code)
	}
}

// Every pick taken: the spawn gives up after pickAttempts and says why and
// what to do; a server that exits for another reason (here a missing
// model) is not started again on a new port.
func TestPickedPortsAllTakenOrOtherEarlyExit(t *testing.T) {
	cfg, _ := setup(t)
	var picks int
	cfg.PickPort = takenThenFree(t, pickAttempts, &picks)
	_, err := Start(ctxT(t), cfg)
	if err == nil {
		t.Fatal("started although every picked port was taken")
	}
	for _, want := range []string{"couldn't bind", "another program took each of the 3 free ports", "set port:"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
	if picks != pickAttempts {
		t.Errorf("%d picks, want %d", picks, pickAttempts)
	}

	cfg, _ = setup(t)
	cfg.Model = filepath.Join(t.TempDir(), "missing.gguf")
	picks = 0
	cfg.PickPort = takenThenFree(t, 0, &picks)
	if _, err := Start(ctxT(t), cfg); err == nil || !strings.Contains(err.Error(), "error loading model") {
		t.Fatalf("err = %v", err)
	}
	if picks != 1 {
		t.Errorf("a server that failed on its model was started %d times, want once", picks)
	}
}
