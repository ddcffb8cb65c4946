package graph

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"

	"kitsoki/pkg/story"
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
		if s := strings.Join(p.Intents(), " "); s != w {
			t.Errorf("%s: path %q, want %q", path, s, w)
		}
	}
	for _, none := range []string{"wild", "timed", "island"} {
		if p, ok := got[none]; ok {
			t.Errorf("%s: path %q, want none", none, p.Intents())
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

// writeStory writes app.yaml into a new directory and returns the
// directory.
func writeStory(t *testing.T, text string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "app.yaml"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// chainStory is a story of n states, each leading to the next on go.
func chainStory(n int) string {
	var b strings.Builder
	b.WriteString("app: {id: chain}\nintents:\n  go: {}\nroot: s0\nstates:\n")
	for i := range n - 1 {
		fmt.Fprintf(&b, "  s%d:\n    on:\n      go: [{target: s%d}]\n", i, i+1)
	}
	fmt.Fprintf(&b, "  s%d: {terminal: true}\n", n-1)
	return b.String()
}

// The paths of a chain share their prefixes: n states hold about n steps,
// where a list per state held n²/2 intents (4,000 states: 128 MB
// allocated; 5,000 made kitsoki test --cover -v take 1 GB).
func TestIntentPathsOfAChainShareTheirPrefixes(t *testing.T) {
	const n = 4000
	g, err := Load(writeStory(t, chainStory(n)), story.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	paths := g.IntentPaths()
	runtime.ReadMemStats(&after)
	if got := after.TotalAlloc - before.TotalAlloc; got > 8<<20 {
		t.Errorf("IntentPaths of a chain of %d states allocated %d bytes, want under 8 MiB", n, got)
	}
	last := paths[fmt.Sprintf("s%d", n-1)]
	if last.Len() != n-1 || last.Bytes() != 2*(n-1) {
		t.Fatalf("path to the last state: %d intents of %d bytes, want %d of %d", last.Len(), last.Bytes(), n-1, 2*(n-1))
	}
	if in := paths["s3"].Intents(); !slices.Equal(in, []string{"go", "go", "go"}) {
		t.Errorf("path to s3: %q", in)
	}
}

// A compound's arms are followed once, not once per state inside it: a
// compound of 1,000 states with 1,000 arms of its own made a path per
// state and arm (a million, and 9 million in 300 KB of story took
// kitsoki test --cover -v 7 s).
func TestIntentPathsFollowACompoundsArmsOnce(t *testing.T) {
	const k, m = 1000, 1000
	var b strings.Builder
	b.WriteString("app: {id: km}\nintents:\n  go: {}\n")
	for j := range m {
		fmt.Fprintf(&b, "  i%d: {}\n", j)
	}
	b.WriteString("root: P\nstates:\n  P:\n    type: compound\n    initial: c0\n    on:\n")
	for j := range m {
		fmt.Fprintf(&b, "      i%d: [{target: P.c%d}]\n", j, j%k)
	}
	b.WriteString("    states:\n")
	for i := range k {
		fmt.Fprintf(&b, "      c%d:\n        on:\n          go: [{target: ../c%d}]\n", i, (i+1)%k)
	}
	g, err := Load(writeStory(t, b.String()), story.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var paths map[string]*IntentPath
	allocs := testing.AllocsPerRun(1, func() { paths = g.IntentPaths() })
	if allocs > 50_000 {
		t.Errorf("IntentPaths made %.0f allocations for %d states and %d arms, want under 50,000", allocs, k, m)
	}
	// P is entered first, so its arms give each state its path (i1, not c0's go)
	for path, want := range map[string]string{"P": "", "P.c0": "", "P.c1": "i1", "P.c5": "i5", "P.c999": "i999"} {
		if got := strings.Join(paths[path].Intents(), " "); got != want || paths[path] == nil {
			t.Errorf("%s: path %q, want %q", path, got, want)
		}
	}
	if reach := g.MoveReachable(); len(reach) != k+1 {
		t.Errorf("MoveReachable: %d states, want %d", len(reach), k+1)
	}
}
