// Package conformance is a test-only helper that holds a story's flow
// fixtures to the existing engine's recorded verdicts: [Check] runs them
// through pkg/flowtest and compares each fixture and turn with the
// upstream.json report recorded beside the story. It must not call the
// existing engine (a fresh clone has none) nor be imported by product code.
package conformance

import (
	"context"
	"path/filepath"
	"testing"

	"kitsoki/pkg/flowtest"
)

// Check runs the flow fixtures of dir/app.yaml (flows/*.yaml, or the glob
// given, relative to dir) and compares them with dir/upstream.json, the
// existing engine's `test flows --json` report of the same fixtures: the
// pass/fail verdict of every fixture and turn, each turn's resting state
// and view. o.Jobs is forced to 1.
func Check(t *testing.T, dir, glob string, o flowtest.Options) {
	t.Helper()
	want, err := flowtest.ReadReport(filepath.Join(dir, "upstream.json"))
	if err != nil {
		t.Fatal(err)
	}
	app, err := filepath.Abs(filepath.Join(dir, "app.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if glob == "" {
		glob = "flows/*.yaml"
	}
	files, ds, err := flowtest.Discover([]string{app}, filepath.Join(dir, glob), false, nil)
	if err != nil || len(ds) > 0 {
		t.Fatalf("discover %s: %v %v", dir, err, ds)
	}
	o.Jobs = 1
	got := flowtest.NewReport(flowtest.NewRunner(o).Run(context.Background(), files))
	byName := map[string]*flowtest.FlowResult{}
	for _, r := range got.Results {
		byName[filepath.Base(r.File)] = r
	}
	if len(got.Results) != len(want.Results) {
		t.Errorf("%s: %d fixtures ran, upstream ran %d", dir, len(got.Results), len(want.Results))
	}
	for _, w := range want.Results {
		name := filepath.Base(w.File)
		g := byName[name]
		if g == nil {
			t.Errorf("%s: fixture %s did not run", dir, name)
			continue
		}
		if g.Passed != w.Passed {
			t.Errorf("%s %s: passed %v, upstream %v", dir, name, g.Passed, w.Passed)
		}
		if len(g.Turns) != len(w.Turns) {
			t.Errorf("%s %s: %d turns, upstream %d (ours: %s)", dir, name, len(g.Turns), len(w.Turns), failures(g))
			continue
		}
		for i, wt := range w.Turns {
			gt := g.Turns[i]
			if gt.Passed != wt.Passed || gt.NewState != wt.NewState || gt.View != wt.View {
				t.Errorf("%s %s turn %d: got {%v %q %q %q}, upstream {%v %q %q %q}", dir, name, wt.TurnIndex,
					gt.Passed, gt.NewState, gt.View, gt.Failures, wt.Passed, wt.NewState, wt.View, wt.Failures)
			}
		}
	}
}

func failures(r *flowtest.FlowResult) []string {
	var out []string
	for _, t := range r.Turns {
		out = append(out, t.Failures...)
	}
	return out
}
