//go:build unix

package fetch

import (
	"path/filepath"
	"syscall"
	"testing"
)

// A candidate that is not a regular file (a FIFO nobody writes, a
// directory) is passed over without blocking; the next one answers.
func TestProbeSkipsWhatIsNotARegularFile(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "libstdc++.so.6")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	real := fixture(t, "libstdc++.so.6.0.30", "GLIBCXX_3.4.30")
	rt := HostProbe{LibstdcxxPaths: []string{fifo, t.TempDir(), real}}.Probe()
	if rt.GLIBCXXMinor != 30 || rt.LibstdcxxPath != real {
		t.Fatalf("%+v", rt)
	}
}
