//go:build unix

package eval

import (
	"path/filepath"
	"syscall"
	"testing"
)

// makeFIFO makes a named pipe in a temp dir: a test and the evalplugin
// hand each other a held call through it (see holdSlowCall).
func makeFIFO(t testing.TB) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}
