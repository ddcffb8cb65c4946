package flowtest

import (
	"context"
	"testing"
)

// BenchmarkCorpus runs every corpus fixture with -j 2, stories loaded and
// compiled inside the measured run as kitsoki test does (goal: < 2 s on 2
// cores).
func BenchmarkCorpus(b *testing.B) {
	files := corpusFiles(b)
	n := 0
	for _, f := range files {
		n += len(f.Fixtures)
	}
	b.ResetTimer()
	for b.Loop() {
		rs := NewRunner(Options{Jobs: 2, Trees: []string{corpusDir}}).Run(context.Background(), files)
		if len(rs) != n {
			b.Fatalf("ran %d of %d fixtures", len(rs), n)
		}
	}
	b.ReportMetric(float64(n), "fixtures")
}

// BenchmarkCorpus500 runs the corpus fixtures ten times over (500
// fixture runs) with -j 2: the scale of upstream's whole suite.
func BenchmarkCorpus500(b *testing.B) {
	files := corpusFiles(b)
	var many []*File
	for range 10 {
		many = append(many, files...)
	}
	b.ResetTimer()
	for b.Loop() {
		rs := NewRunner(Options{Jobs: 2, Trees: []string{corpusDir}}).Run(context.Background(), many)
		for _, r := range rs {
			if !r.Passed() && r.Fatal != nil {
				b.Fatalf("%s: %s", r.Name, r.Fatal.Message)
			}
		}
	}
	n := 0
	for _, f := range many {
		n += len(f.Fixtures)
	}
	b.ReportMetric(float64(n), "fixtures")
}
