//go:build unix

package story

import (
	"syscall"
	"testing"
)

// processCPU returns the user+system CPU time consumed so far, in ns. On a
// shared machine the wall-clock ns/op is inflated by other processes; this
// shows the work Load itself does.
func processCPU() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

func reportCPU(b *testing.B, start int64) {
	if start > 0 && b.N > 0 {
		b.ReportMetric(float64(processCPU()-start)/float64(b.N), "cpu-ns/op")
	}
}
