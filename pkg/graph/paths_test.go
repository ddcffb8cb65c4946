package graph

import (
	"reflect"
	"slices"
	"strings"
	"testing"
)

// Shortest intent paths on a story whose paths are known by hand: guards
// and templated choices ignored, initial: chains and parallel regions
// entered, the wildcard, timeouts and unreachable states left without one.
func TestIntentPaths(t *testing.T) {
	g := load(t, "testdata/paths")
	got := g.IntentPaths()
	want := map[string]string{
		"start":        "",
		"one":          "a",
		"far":          "b", // the guarded arm, declared first
		"two":          "b",
		"asked":        "ask",
		"chosen":       "b b", // one of the states the template names
		"box":          "b c",
		"box.inner":    "b c", // box's initial:
		"box.deep":     "b c a",
		"par":          "b c",
		"par.left":     "b c",
		"par.left.l2":  "b c",   // entered at the leaf alone, not through l1
		"par.right":    "b c d", // par's stay enters every region
		"par.right.r1": "b c d", // the other region's initial:
		"par.right.r2": "b c d a",
		"par.left.l1":  "b c d",
	}
	for path, w := range want {
		p, ok := got[path]
		if !ok {
			t.Errorf("%s: no path, want %q", path, w)
			continue
		}
		if s := strings.Join(p, " "); s != w {
			t.Errorf("%s: path %q, want %q", path, s, w)
		}
	}
	for _, none := range []string{"wild", "timed", "island"} {
		if p, ok := got[none]; ok {
			t.Errorf("%s: path %q, want none", none, p)
		}
	}
	if len(got) != len(want) {
		var extra []string
		for k := range got {
			if _, ok := want[k]; !ok {
				extra = append(extra, k)
			}
		}
		slices.Sort(extra)
		t.Errorf("unexpected paths for %v", extra)
	}
	// counting timeouts, on_error and on_complete (and the wildcard) too
	all := g.MoveReachable()
	for path, want := range map[string]bool{"timed": true, "wild": true, "far": true, "island": false, "par.left.l1": true} {
		if all[path] != want {
			t.Errorf("MoveReachable[%s] = %v, want %v", path, all[path], want)
		}
	}
	if !reflect.DeepEqual(g.Slots, map[string][]string{"ask": {"q"}}) {
		t.Errorf("slots %v, want ask's q (tone has a default)", g.Slots)
	}
}

// A view without the root has no paths; the whole drawing's are the ones
// to use.
func TestIntentPathsWithoutRoot(t *testing.T) {
	g := view(t, load(t, "testdata/paths"), View{State: "box"})
	if got := g.IntentPaths(); len(got) != 0 {
		t.Errorf("paths %v in a view without the root", got)
	}
}
