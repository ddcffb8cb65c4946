package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// -shapes draws the effect shapes it promises (once: with on_error on a
// failing call, emit: on a failing call, emit_intent beside other kinds,
// first-kind-wins entries, on_complete targets beside other keys), the
// stories load and run clean here on both paths, and the story without
// its draws is the one the seed writes without -shapes.
func TestShapesStoriesRun(t *testing.T) {
	t.Parallel()
	const n = 12
	for _, legacy := range []bool{false, true} {
		flows := func(dir string, n int, seed uint64) error {
			return write(dir, n, seed, genOpts{emits: true, trail: true, legacy: legacy, shapes: true})
		}
		dir := writeSeeded(t, flows, n, 13, "000/app.yaml", "002/flows/f.yaml")
		assertDrawn(t, dir, []string{"once: true", "on_error:", "emit: go", "say: first {{ world.n }}",
			"increment:\n", "emit_intent: '{{ world.n > 2 ? ''ping'' : '''' }}'", "s: '{{ world.s }}IN'"})
		plain := t.TempDir()
		if err := write(plain, 1, 13, genOpts{emits: true, trail: true, legacy: legacy}); err != nil {
			t.Fatal(err)
		}
		a, _ := os.ReadFile(filepath.Join(plain, "000", "app.yaml"))
		b, _ := os.ReadFile(filepath.Join(dir, "000", "app.yaml"))
		if bytes.Equal(a, b) || !bytes.Contains(b, []byte("id: gen-13")) {
			t.Errorf("-shapes added nothing to story 000")
		}
		runClean(t, discoverEach(t, dir, n), n)
	}
}

// -shapes aims no on_error or on_complete target at a state entering
// which submits a job (its own on_enter, an ancestor's, the child's):
// upstream aborts a run whose job is submitted inside a clock drain.
func TestShapesAimAtNoJobState(t *testing.T) {
	t.Parallel()
	job := func() []any { return []any{m{"invoke": "host.job", "background": true}} }
	aimed := map[string]int{}
	for seed := range uint64(200) {
		app := m{"states": m{
			"s0": m{"on_enter": job()},
			"s1": m{"on_enter": []any{m{"invoke": "host.job", "background": true, "on_complete": []any{m{"set": m{"t": "x"}}}}}},
			"s2": m{},
			"c":  m{"on_enter": job(), "states": m{"c1": m{}, "c2": m{}}},
		}}
		kid := m{"states": m{"k1": m{"on_enter": job()}}}
		newShapeGen(seed, []string{"s0", "s1", "s2", "c", "c.c1", "c.c2", "kid"}).apply(app, kid)
		collectAims(app, aimed)
	}
	for _, bad := range []string{"s0", "s1", "c", "c.c1", "c.c2", "kid"} {
		if aimed[bad] > 0 {
			t.Errorf("%d targets drawn name %s, whose entry submits a job", aimed[bad], bad)
		}
	}
	if aimed["s2"] == 0 {
		t.Errorf("no target drawn names s2: %v", aimed)
	}
}

// collectAims counts the on_error values and target: values under v.
func collectAims(v any, aimed map[string]int) {
	switch x := v.(type) {
	case m:
		for k, e := range x {
			if s, ok := e.(string); ok && (k == "on_error" || k == "target") {
				aimed[s]++
			}
			collectAims(e, aimed)
		}
	case []any:
		for _, e := range x {
			collectAims(e, aimed)
		}
	}
}

// Entering a state enters its initial: chain and, under a parallel
// ancestor, every other region's: a job on any of their on_enters is
// submitted by the entry.
func TestSubmitsOnEntryFollowsInitialAndRegions(t *testing.T) {
	t.Parallel()
	job := []any{m{"invoke": "host.job", "background": true}}
	app := m{"states": m{
		"c": m{"initial": "c1", "states": m{"c1": m{"initial": "d1", "states": m{"d1": m{"on_enter": job}, "d2": m{}}}, "c2": m{}}},
		"p": m{"type": "parallel", "states": m{
			"ra": m{"initial": "a1", "states": m{"a1": m{}, "a2": m{}}},
			"rb": m{"initial": "b2", "states": m{"b1": m{}, "b2": m{"on_enter": job}}},
		}},
		"q": m{"type": "parallel", "states": m{
			"ra": m{"initial": "a1", "states": m{"a1": m{}}},
			"rb": m{"initial": "b1", "states": m{"b1": m{}, "b2": m{"on_enter": job}}},
		}},
	}}
	for path, want := range map[string]bool{
		"c": true, "c.c1": true, "c.c1.d1": true, "c.c1.d2": false, "c.c2": false,
		"p": true, "p.ra.a1": true, "p.ra": true, "p.rb.b1": false, "p.rb.b2": true,
		"q": false, "q.ra.a1": false, "q.rb.b2": true,
	} {
		if got := submitsOnEntry(app, nil, path); got != want {
			t.Errorf("submitsOnEntry(%s) = %v, want %v", path, got, want)
		}
	}
}
