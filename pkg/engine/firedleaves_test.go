package engine

import (
	"slices"
	"testing"
)

// FiredLeaves reads a configuration back as an intent fired there does:
// one leaf per region, the later of two (conformance lint-par-cross: gb1
// at p#p.rb.b1|p.rb.b2 is looked up from b2 alone); a path naming no
// parallel state, or a leaf the story does not hold, is not judged.
func TestFiredLeaves(t *testing.T) {
	m := compileStory(t, "conformance/lint-par-cross")
	for conf, want := range map[string][]string{
		"p#p.ra.a1|p.rb.b1": {"p.ra.a1", "p.rb.b1"},
		"p#p.rb.b1|p.rb.b2": {"p.rb.b2"},
		"p#p.rb.b1|p.rb.b1": {"p.rb.b1"},
		"p#p.rb.b2|p.rb.b1": {"p.rb.b1"},
	} {
		got, ok := m.FiredLeaves(conf)
		if !ok || !slices.Equal(got, want) {
			t.Errorf("FiredLeaves(%q) = %v, %v; want %v", conf, got, ok, want)
		}
	}
	for _, conf := range []string{"p", "outside#p.ra.a1", "p#p.ra.zz", "nowhere#x"} {
		if got, ok := m.FiredLeaves(conf); ok {
			t.Errorf("FiredLeaves(%q) = %v, ok; want not judged", conf, got)
		}
	}
}
