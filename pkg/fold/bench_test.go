package fold

import (
	"path/filepath"
	"testing"

	"kitsoki/internal/testing/storyload"
	"kitsoki/pkg/lint"
	"kitsoki/pkg/story"
)

// BenchmarkFold folds the three-layer testdata and the frontier/robbery
// pair (load excluded).
func BenchmarkFold(b *testing.B) {
	for _, dir := range []string{"testdata/nested/top", filepath.Join(corpusDir(b), "frontier_event"), filepath.Join(corpusDir(b), "imports_smoke", "parent")} {
		st, _ := lint.Load(dir, story.Options{Trees: storyload.Trees()})
		if st == nil {
			b.Fatal("no story")
		}
		b.Run(filepath.Base(dir), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := New(st, Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
