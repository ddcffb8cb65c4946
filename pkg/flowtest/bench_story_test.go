package flowtest

import (
	"context"
	"path/filepath"
	"testing"
)

// BenchmarkLargestStoryFixtures runs 100 copies of one fixture of the
// largest corpus story (pr-refinement) in one run, -j 1, the story loaded
// once by the runner as kitsoki test does: ns/fixture is the per-fixture
// cost with the load spread over the 100 (goal: < 2 ms beyond the
// fixture's turns; turns/fixture is reported beside it).
func BenchmarkLargestStoryFixtures(b *testing.B) {
	app := filepath.Join(corpusDir, "pr-refinement", "app.yaml")
	files, _, err := DiscoverUnder("", nil, []string{app}, "", false, nil)
	if err != nil || len(files) == 0 {
		b.Skip("no pr-refinement fixtures in the corpus")
	}
	var one *Fixture
	for _, f := range files {
		for _, fx := range f.Fixtures {
			if filepath.Base(fx.File) == "happy_human.yaml" {
				one = fx
			}
		}
	}
	if one == nil {
		b.Skip("pr-refinement has no happy_human.yaml")
	}
	const copies = 100
	many := &File{Story: one.Story}
	for range copies {
		many.Fixtures = append(many.Fixtures, one)
	}
	b.ResetTimer()
	for b.Loop() {
		rs := NewRunner(Options{Jobs: 1}).Run(context.Background(), []*File{many})
		if len(rs) != copies || !rs[0].Passed() {
			b.Fatalf("ran %d fixtures; first passed=%v", len(rs), len(rs) > 0 && rs[0].Passed())
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*copies), "ns/fixture")
	b.ReportMetric(float64(len(one.Turns)), "turns/fixture")
}
