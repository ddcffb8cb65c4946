//go:build unix

package conformance

import (
	"io/fs"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"kitsoki/pkg/flowtest"
)

// cpuTime is the process's user and system CPU time so far.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkReadUpstream reads every upstream.json of the engine's and the
// views' conformance goldens, as TestConformanceGoldens does once each
// (readUpstream), and as a whole report (ReadReport); cpu-ns/op is the
// process's user and system time, which a busy machine stretches less
// than the wall clock.
func BenchmarkReadUpstream(b *testing.B) {
	b.Run("compared", func(b *testing.B) { benchRead(b, readUpstream) })
	b.Run("whole", func(b *testing.B) { benchRead(b, ReadReport) })
}

func benchRead(b *testing.B, read func(string) (*flowtest.Report, error)) {
	var paths []string
	for _, root := range []string{"../../../pkg/engine/testdata/conformance", "../../../pkg/view/testdata/conformance"} {
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && d.Name() == "upstream.json" {
				paths = append(paths, p)
			}
			return err
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	cpu := cpuTime(b)
	for b.Loop() {
		for _, p := range paths {
			if _, err := read(p); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(cpuTime(b)-cpu)/float64(b.N), "cpu-ns/op")
}
