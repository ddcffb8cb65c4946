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

// InitialLeaf descends each literal initial: the machine compiled; a
// region written without type: compound keeps none and is its own
// landing (conformance par-transition-view-root: p.ra rests on p.ra).
func TestInitialLeaf(t *testing.T) {
	typed := compileStory(t, "conformance/lint-par-cross")
	untyped := compileStory(t, "conformance/par-transition-view-root")
	for _, c := range []struct {
		m          *Machine
		path, leaf string
		entered    []string
	}{
		{typed, "p.ra", "p.ra.a1", []string{"p.ra.a1"}},
		{typed, "p.rb.b2", "p.rb.b2", nil},
		{untyped, "p.ra", "p.ra", nil},
		{untyped, "c", "c", nil},
	} {
		leaf, entered, ok := c.m.InitialLeaf(c.path)
		if !ok || leaf != c.leaf || !slices.Equal(entered, c.entered) {
			t.Errorf("InitialLeaf(%q) = %q, %v, %v; want %q, %v", c.path, leaf, entered, ok, c.leaf, c.entered)
		}
	}
	for _, p := range []string{"p", "nowhere"} {
		if _, _, ok := typed.InitialLeaf(p); ok {
			t.Errorf("InitialLeaf(%q) ok; want not judged", p)
		}
	}
}
