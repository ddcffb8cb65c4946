//go:build unix

package childproc

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A pinned program that is a FIFO (an executable one passes PATH lookup)
// is refused by name at once: the pin check's open never waits for a
// writer that never comes.
func TestPinnedFIFORefusedAtOnce(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "hook")
	if err := syscall.Mkfifo(fifo, 0o755); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	done := make(chan error, 1)
	go func() { done <- checkPin(fifo, "", strings.Repeat("ab", 32), "entry.sha256 in m.yaml") }()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "cannot check "+fifo) || !strings.Contains(err.Error(), "a FIFO") {
			t.Fatalf("checkPin of a FIFO: %v; want it refused by name", err)
		}
	case <-time.After(time.Minute): // a hang, not a slow machine
		if w, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			w.Close()
		}
		t.Fatal("checkPin is still opening the FIFO")
	}
}
