package graph

import (
	"io"
	"testing"

	"kitsoki/pkg/story"
)

// BenchmarkBigStory draws the generated 310-state story: load and fold,
// build, and write it in both formats, whole and at --depth 1.
func BenchmarkBigStory(b *testing.B) {
	dir := bigStory(b)
	for b.Loop() {
		g, err := Load(dir, story.Options{})
		if err != nil {
			b.Fatal(err)
		}
		v, err := g.View(View{Depth: 1})
		if err != nil {
			b.Fatal(err)
		}
		for _, x := range []*Graph{g, v} {
			if err := WriteDOT(io.Discard, x, Options{}); err != nil {
				b.Fatal(err)
			}
			if err := WriteMermaid(io.Discard, x, Options{}); err != nil {
				b.Fatal(err)
			}
		}
	}
}
