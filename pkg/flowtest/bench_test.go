package flowtest

import (
	"context"
	"testing"

	"kitsoki/pkg/validate"
)

// BenchmarkCorpus runs every corpus fixture with -j 2, stories loaded and
// compiled inside the measured run as kitsoki test does (goal: < 2 s on 2
// cores).
func BenchmarkCorpus(b *testing.B) {
	apps, err := validate.Expand([]string{corpusDir + "/..."})
	if err != nil {
		b.Skip("no corpus: ", err)
	}
	files, _, err := Discover(apps, "", false, nil)
	if err != nil || len(files) == 0 {
		b.Skip("no corpus fixtures")
	}
	n := 0
	for _, f := range files {
		n += len(f.Fixtures)
	}
	b.ResetTimer()
	for b.Loop() {
		rs := NewRunner(Options{Jobs: 2}).Run(context.Background(), files)
		if len(rs) != n {
			b.Fatalf("ran %d of %d fixtures", len(rs), n)
		}
	}
	b.ReportMetric(float64(n), "fixtures")
}
