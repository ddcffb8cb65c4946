package flowtest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// Probes of timeouts, the virtual clock and views, each a story written
// for the purpose with the existing engine's own --json report of its
// fixtures (upstream.json): verdicts, resting states, views byte for
// byte, failure texts and event kinds must agree (compareFlow). The
// stories live beside the packages whose rules they pin:
// pkg/view/testdata/conformance (element when: truthiness, typed-view
// layout, no view fallback) and pkg/engine/testdata/conformance/clock
// (timeouts re-armed from the end of an advance, landings on a bare
// parallel root, timeouts and job completions in one advance, the start
// state's timeout, replayed values on clock-only turns).
func TestClockAndViewProbes(t *testing.T) {
	var dirs []string
	for _, root := range []string{"../view/testdata/conformance", "../engine/testdata/conformance/clock"} {
		ents, err := os.ReadDir(root)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range ents {
			if e.IsDir() {
				dirs = append(dirs, filepath.Join(root, e.Name()))
			}
		}
	}
	if len(dirs) < 14 {
		t.Fatalf("found %d probe directories, want at least 14", len(dirs))
	}
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			checkAgainstUpstream(t, dir, filepath.Join("flows", "*.yaml"), Options{})
		})
	}
}

// checkAgainstUpstream runs the fixtures matching glob (relative to base)
// against base/app.yaml and compares the report with base/upstream.json,
// the existing engine's report of the same fixtures.
func checkAgainstUpstream(t *testing.T, base, glob string, o Options) {
	t.Helper()
	want, err := ReadReport(filepath.Join(base, "upstream.json"))
	if err != nil {
		t.Fatal(err)
	}
	app, _ := filepath.Abs(filepath.Join(base, "app.yaml"))
	files, _, err := Discover([]string{app}, filepath.Join(base, glob), false, nil)
	if err != nil {
		t.Fatal(err)
	}
	o.Jobs = 1
	got := NewReport(NewRunner(o).Run(context.Background(), files))
	if got.Passed != want.Passed || got.Failed != want.Failed || len(got.Results) != len(want.Results) {
		t.Fatalf("counts: got %d/%d of %d, upstream %d/%d of %d", got.Passed, got.Failed, len(got.Results), want.Passed, want.Failed, len(want.Results))
	}
	for i, w := range want.Results {
		compareFlow(t, fmt.Sprintf("%s#%d", w.File, i), got.Results[i], w)
	}
}
