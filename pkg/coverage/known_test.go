package coverage

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"kitsoki/internal/testing/golden"
	"kitsoki/pkg/engine"
)

// The known story's fixtures reach exactly what they were written to
// reach: every figure below is counted by hand from testdata/known (its
// fixtures pass on the existing engine too: existing-engine.golden).
func TestKnownStoryFigures(t *testing.T) {
	p := runCovered(t, "testdata/known", "testdata/known/app.yaml")
	s := p.Summarize()
	// arcs: 17 on: arms (lobby 8, the gate template 2, clock 1, day1 1,
	// dry 1, the shop 4) + 1 timeout + 2 on_error + 2 on_complete targets
	// = 22; states: 17 states (the phase template's state once, on its
	// line; the import's wrapper; the shop's 2) + 2 exits + the import's 2
	// exit mappings = 21; effects: 7
	// (the gate's increment, the job, its set, host.fail, dry's set, the
	// shop's increment and charge)
	if got := SummaryLine(s); got != "coverage: 72.7% of arcs (16/22), 76.2% of states (16/21)" {
		t.Errorf("summary %q", got)
	}
	if s.Effects != (Figure{Reached: 6, Total: 7}) {
		t.Errorf("effects %+v", s.Effects)
	}
	var un []string
	for _, u := range p.Unreached() {
		un = append(un, fmt.Sprintf("%s:%d %s %s", u.Path, u.Line, u.Kind, u.Label))
	}
	want := []string{
		"app.yaml:8 exit abandoned",
		"app.yaml:32 exit left",                   // the import's mapping of the child's exit: no arc went out through it
		"app.yaml:42 arc on approve → done_state", // the guarded arm of a phase template: neither phase took it
		"app.yaml:61 arc on quit → @exit:abandoned",
		"app.yaml:75 on_complete → broken", // its when: failed; the next target was taken
		"app.yaml:77 state broken",
		"app.yaml:101 arc on rain → ../wet", // a parallel region nobody moved
		"app.yaml:101 effect set",
		"app.yaml:102 state clock.weather.wet",
		"app.yaml:103 state done_state",
		"shop/app.yaml:18 arc on store__walk_out → lobby", // an import's parts count in the child's file
		"shop/app.yaml:22 on_error → ../aisle",            // the charge never failed
	}
	if strings.Join(un, "\n") != strings.Join(want, "\n") {
		t.Errorf("unreached:\n%s\nwant:\n%s", strings.Join(un, "\n"), strings.Join(want, "\n"))
	}
	// counts where the source is shared or generated
	for _, c := range []struct {
		path string
		line int
		kind engine.ReachKind
		want int64
	}{
		{"app.yaml", 39, engine.ReachState, 2},      // "{id}_executing": alpha and beta, one template line
		{"app.yaml", 44, engine.ReachArc, 2},        // its fallback arm, taken in both phases
		{"app.yaml", 27, engine.ReachState, 1},      // the import's wrapper state, at its imports: entry
		{"shop/app.yaml", 16, engine.ReachArc, 1},   // pick, in the child
		{"app.yaml", 65, engine.ReachTimeout, 1},    // waiting's timeout fired once
		{"app.yaml", 81, engine.ReachOnError, 1},    // fetching's on_error
		{"app.yaml", 76, engine.ReachOnComplete, 1}, // the job's second target
		{"app.yaml", 7, engine.ReachExit, 1},        // @exit:finished
		{"app.yaml", 31, engine.ReachExit, 1},       // the child's @exit:paid, through the import's mapping
		{"app.yaml", 94, engine.ReachState, 1},      // clock.calendar.day2, a region's leaf
	} {
		if got := count(p, c.path, c.line, c.kind); got != c.want {
			t.Errorf("%s:%d %s: count %d, want %d", c.path, c.line, c.kind, got, c.want)
		}
	}
	for name, b := range formats(t, p) {
		golden.Check(t, "testdata/known/golden/profile."+name, b)
	}
	var v bytes.Buffer
	WriteUnreachedHints(&v, p, nil, "")
	golden.Check(t, "testdata/known/golden/unreached.txt", v.Bytes())
}

// count is the count of the item of kind at path:line (-1 when none).
func count(p *Profile, path string, line int, kind engine.ReachKind) int64 {
	for _, f := range p.Files {
		if f.Path != path {
			continue
		}
		for _, it := range f.Items {
			if it.Line == line && it.Kind == kind {
				return it.Count
			}
		}
	}
	return -1
}
