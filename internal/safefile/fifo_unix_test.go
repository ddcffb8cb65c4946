//go:build unix

package safefile

import (
	"net"
	"path/filepath"
	"syscall"
	"testing"
)

func makeFIFO(t *testing.T, dir string) string {
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	return fifo
}

func makeSocket(t *testing.T, dir string) string {
	p := filepath.Join(dir, "sock")
	l, err := net.Listen("unix", p)
	if err != nil {
		t.Skipf("no unix socket here: %v", err)
	}
	t.Cleanup(func() { l.Close() })
	return p
}
