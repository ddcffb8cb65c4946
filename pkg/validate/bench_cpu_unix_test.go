//go:build unix

package validate

import (
	"os"
	"runtime"
	"syscall"
	"testing"
)

// processCPU returns the user+system CPU time this process has used, in
// ns: on a shared machine wall-clock ns/op is inflated by other
// processes, CPU time shows the work validate itself does.
func processCPU() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

// usage sums what exited child processes used.
type usage struct {
	n, cpu, minflt int64
	maxrss         int64 // bytes, the largest of the children's
}

// add counts the exited process ps.
func (u *usage) add(ps *os.ProcessState) {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok || ru == nil {
		return
	}
	u.n++
	u.cpu += ru.Utime.Nano() + ru.Stime.Nano()
	u.minflt += int64(ru.Minflt)
	rss := int64(ru.Maxrss) << 10 // kilobytes on Linux and the BSDs
	if runtime.GOOS == "darwin" || runtime.GOOS == "ios" {
		rss = int64(ru.Maxrss)
	}
	u.maxrss = max(u.maxrss, rss)
}

// report reports the children's CPU time and page faults per process,
// and their peak resident memory.
func (u *usage) report(b *testing.B) {
	if u.n == 0 {
		return
	}
	b.ReportMetric(float64(u.cpu)/float64(u.n), "cpu-ns/op")
	b.ReportMetric(float64(u.minflt)/float64(u.n), "minflt/op")
	b.ReportMetric(float64(u.maxrss)/(1<<20), "maxrss-MiB")
}
