package story

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"kitsoki/pkg/diag"
)

// An include listed again and again is merged again each time (as
// upstream), but each repeat counts towards the story's total bytes and
// only the first repeat lists its colliding declarations: a 1 MB file of
// 4,000 states listed 800 times made 3.2 million errors (validate: 9.5 s
// of CPU, 1.5 GB; 5,000 times: 7 GB and no end in 200 s).
func TestIncludeRepeatsAreCountedAndReportedOnce(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, ".kitsoki/keep", "")
	var room strings.Builder
	room.WriteString("states:\n")
	for i := range 50 {
		fmt.Fprintf(&room, "  r%d: {terminal: true}\n", i)
	}
	write(t, dir, "rooms/r.yaml", room.String())
	write(t, dir, "app.yaml", "app: {id: i}\nroot: r0\ninclude: ["+strings.TrimSuffix(strings.Repeat("rooms/r.yaml, ", 30), ", ")+"]\n")
	_, ds := Load(dir, Options{})
	var errs []string
	for _, d := range ds {
		if d.Severity == diag.Error {
			errs = append(errs, d.Message)
		}
	}
	// the first repeat: 50 collisions; each of the 28 after it: one error
	if len(errs) != 50+28 {
		t.Fatalf("want 78 errors (50 collisions, then one per later repeat), got %d: %q", len(errs), errs[:min(len(errs), 5)])
	}
	if last := errs[len(errs)-1]; !strings.Contains(last, "rooms/r.yaml is included again") || !strings.Contains(last, "list it once") {
		t.Errorf("a later repeat's error: %s", last)
	}
	// the repeats count towards the story's total: 30 times the file is
	// over a limit of 10 times it
	limit := int64(10 * room.Len())
	_, ds = Load(dir, Options{maxStoryBytes: limit})
	if out := render(ds); !strings.Contains(out, "brings the story's YAML") {
		t.Errorf("repeats not counted towards the total of %d:\n%s", limit, out[:min(len(out), 2000)])
	}
}

// World variables an include declares are merged against a set, not a
// list searched per variable (100,000 of them in one include took validate
// 56 s of CPU, quadratic; the speed is measured with the binary, not here):
// each variable is merged once and a collision is still reported.
func TestIncludeWorldMergeIsLinear(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, ".kitsoki/keep", "")
	var w strings.Builder
	w.WriteString("world:\n")
	for i := range 20000 {
		fmt.Fprintf(&w, "  w%d: {type: str}\n", i)
	}
	w.WriteString("  x: {type: str}\n")
	write(t, dir, "rooms/w.yaml", w.String())
	write(t, dir, "app.yaml", "app: {id: i}\nroot: a\ninclude: [rooms/w.yaml]\nworld:\n  x: {type: str}\nstates:\n  a: {terminal: true}\n")
	st, ds := Load(dir, Options{})
	if st == nil || len(st.World) != 20001 {
		t.Fatalf("world: %v", ds)
	}
	if out := render(ds); !strings.Contains(out, `world variable "x" is already declared`) {
		t.Errorf("want the collision on x:\n%s", out)
	}
}

// Each include merges against the story's names kept as a set across the
// includes, not a set made again from every state declared so far (a
// story of N one-state includes cost N²: 8,000 of them took validate 3.2 s
// of CPU, 32,000 more than 120 s; the speed is measured with the binary,
// not here). Here, beside 20,000 states of the manifest, 200 includes
// more allocate what they read, not 200 sets of 20,000 names.
func TestIncludeManyFilesMergeIsLinear(t *testing.T) {
	var app strings.Builder
	app.WriteString("app: {id: i}\nroot: a0\nstates:\n")
	for i := range 20000 {
		fmt.Fprintf(&app, "  a%d: {terminal: true}\n", i)
	}
	load := func(includes int) uint64 {
		dir := t.TempDir()
		write(t, dir, ".kitsoki/keep", "")
		for i := range includes {
			write(t, dir, fmt.Sprintf("rooms/r%05d.yaml", i), fmt.Sprintf("states:\n  r%d: {terminal: true}\n", i))
		}
		write(t, dir, "app.yaml", strings.Replace(app.String(), "states:\n", "include: [rooms/*.yaml]\nstates:\n", 1))
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		st, ds := Load(dir, Options{})
		runtime.ReadMemStats(&after)
		if st == nil || len(st.States) != 20000+includes {
			t.Fatalf("%d includes: %v", includes, render(ds))
		}
		return after.TotalAlloc - before.TotalAlloc
	}
	one, many := load(1), load(201)
	if extra := int64(many) - int64(one); extra > 32<<20 {
		t.Errorf("200 one-state includes more allocated %d MB (1 include: %d MB), want what they read", extra>>20, one>>20)
	}
}
