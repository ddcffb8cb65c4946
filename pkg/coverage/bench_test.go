package coverage

import (
	"context"
	"io"
	"path/filepath"
	"testing"

	"kitsoki/internal/testing/storytest"
	"kitsoki/pkg/flowtest"
	"kitsoki/pkg/validate"
)

// BenchmarkCorpusCover is kitsoki test over the shared corpus (-j 2,
// stories loaded and compiled inside the run, as the command does),
// without coverage and with it (every story registered, the profile
// built and written as LCOV). Goal: cover adds under 10%.
func BenchmarkCorpusCover(b *testing.B) {
	corpus := storytest.Corpus(b, ".")
	apps, err := validate.Expand([]string{filepath.Join(corpus, "...")}, nil)
	if err != nil {
		b.Fatal(err)
	}
	files, _, err := flowtest.DiscoverUnder("", nil, apps, "", true, nil)
	if err != nil || len(files) == 0 {
		b.Skipf("no corpus fixtures: %v", err)
	}
	run := func(b *testing.B, cover bool) {
		for b.Loop() {
			opts := flowtest.Options{Jobs: 2, Root: corpus}
			var col *Collector
			if cover {
				col = NewCollector(Options{})
				opts.Observer = col
			}
			r := flowtest.NewRunner(opts)
			if cover {
				seen := map[string]bool{}
				for _, f := range files {
					if !seen[f.Story] {
						seen[f.Story] = true
						if ld, err := r.Story(f.Story); err == nil && ld.Machine != nil {
							col.Add(ld.Machine)
						}
					}
				}
			}
			for _, res := range r.Run(context.Background(), files) {
				if res.Fatal != nil {
					b.Fatalf("%s: %s", res.Name, res.Fatal.Message)
				}
			}
			if cover {
				if err := WriteLCOV(io.Discard, col.Profile()); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
	b.Run("plain", func(b *testing.B) { run(b, false) })
	b.Run("cover", func(b *testing.B) { run(b, true) })
}
