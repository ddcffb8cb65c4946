//go:build unix

package sidecar

import (
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
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
