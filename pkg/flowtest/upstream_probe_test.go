package flowtest

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// goValueText marks upstream failure texts that print values with Go's
// %v (%T): ours print JSON values there (docs/compat/flowtest.md), so
// only their presence is compared.
var goValueText = regexp.MustCompile(`map\[|\(\[\]interface|\((u?int|float)(64)?\)|\(string\)|<nil>`)

// The flow probes of testdata/upstream/<dir> run here as they ran
// upstream (upstream.json is upstream's own --json report of them):
// per-fixture and per-turn verdicts, NewState, View, failure texts and the
// kinds of each turn's events must agree. On the legacy path the event
// order and the missing state_path must agree too.
func TestUpstreamProbeReports(t *testing.T) {
	for _, tc := range []struct {
		dir, glob string
		o         Options
	}{
		{dir: "probe", glob: "flows/*.yaml"},
		{dir: "probe5", glob: "flows/k2.yaml"},
		{dir: "probe3", glob: "flows/h0[23]*.yaml", o: Options{AllowMissingRecording: true}},
	} {
		t.Run(tc.dir, func(t *testing.T) {
			checkAgainstUpstream(t, filepath.Join("testdata", "upstream", tc.dir), tc.glob, tc.o)
		})
	}
}

func compareFlow(t *testing.T, name string, g, w *FlowResult) {
	t.Helper()
	if filepath.Base(g.File) != filepath.Base(w.File) {
		t.Errorf("%s: got file %s", name, g.File)
		return
	}
	if g.Passed != w.Passed || g.Skipped != w.Skipped {
		t.Errorf("%s: passed/skipped %v/%v, upstream %v/%v", name, g.Passed, g.Skipped, w.Passed, w.Skipped)
	}
	if len(g.Turns) != len(w.Turns) {
		t.Errorf("%s: %d turns, upstream %d", name, len(g.Turns), len(w.Turns))
		return
	}
	for j, wt := range w.Turns {
		gt := g.Turns[j]
		at := fmt.Sprintf("%s turn %d", name, wt.TurnIndex)
		if gt.TurnIndex != wt.TurnIndex || gt.Passed != wt.Passed || gt.NewState != wt.NewState || gt.View != wt.View {
			t.Errorf("%s: got {%d %v %q %q}, upstream {%d %v %q %q}", at, gt.TurnIndex, gt.Passed, gt.NewState, gt.View, wt.TurnIndex, wt.Passed, wt.NewState, wt.View)
		}
		if len(gt.Failures) != len(wt.Failures) {
			t.Errorf("%s: failures %q, upstream %q", at, gt.Failures, wt.Failures)
		} else {
			for k := range wt.Failures {
				if !goValueText.MatchString(wt.Failures[k]) && gt.Failures[k] != wt.Failures[k] {
					t.Errorf("%s: failure %q, upstream %q", at, gt.Failures[k], wt.Failures[k])
				}
			}
		}
		if (gt.Events == nil) != (wt.Events == nil) {
			t.Errorf("%s: events null %v, upstream %v", at, gt.Events == nil, wt.Events == nil)
		}
		legacy := len(wt.Events) > 0 && wt.Events[0].Turn == 0
		gk, wk := eventKinds(gt.Events, !legacy), eventKinds(wt.Events, !legacy)
		if gk != wk {
			t.Errorf("%s: event kinds\n got %s\n upstream %s", at, gk, wk)
		}
		for k, we := range wt.Events {
			if k < len(gt.Events) && gt.Events[k].Kind == we.Kind && gt.Events[k].StatePath != we.StatePath {
				t.Errorf("%s: event %d %s state_path %q, upstream %q", at, k, we.Kind, gt.Events[k].StatePath, we.StatePath)
			}
			if legacy && k < len(gt.Events) && gt.Events[k].Turn != 0 {
				t.Errorf("%s: legacy event %d has turn %d, upstream 0", at, k, gt.Events[k].Turn)
			}
		}
	}
}

// eventKinds lists the kinds in order, or sorted where the engine's
// order of a call's binds and its harness.returned still differs from
// upstream's in kitsoki run (sessions write binds first; see TestUpstreamEventShapes).
func eventKinds(evs []ReportEvent, sorted bool) string {
	ks := make([]string, len(evs))
	for i, e := range evs {
		ks[i] = e.Kind
	}
	if sorted {
		sort.Strings(ks)
	}
	return strings.Join(ks, " ")
}

// Probes upstream passes (flow-format.md §4.1, runs g01/g02; g03 pins the
// foreground clarification text): a foreground stub delay, a foreground
// request_clarification (a domain error, nothing bound), error and data
// together, a top-level infra_error behind an unmatched by_call.
func TestUpstreamProbesThatPass(t *testing.T) {
	wantStoryFlowsPass(t, filepath.Join("testdata", "upstream", "probe2"), 3)
}

// Legacy-path fixtures upstream passes (flow-format.md §1.3): the machine
// alone, so a stay arc fires no post-bind emit (legacy.yaml rests in r)
// and a background invoke submits no job and binds nothing
// (legacy_background.yaml); orchestrator.yaml is the same stay arc on the
// orchestrator path, where the post-bind pass routes to s.
func TestUpstreamLegacyFixtures(t *testing.T) {
	wantStoryFlowsPass(t, filepath.Join("testdata", "upstream-legacy", "no_post_bind"), 3)
}

// Binds come before harness.returned, an intent sent without slots is
// reported with slots: null, and harness.dispatched carries
// rerender_fell_back (flow-format.md §6.5), as upstream's reports show.
func TestUpstreamEventShapes(t *testing.T) {
	wantStoryFlowsPass(t, filepath.Join("testdata", "upstream-legacy", "returned_after_binds"), 2)
}

// wantStoryFlowsPass runs the flows <base>/flows/*.yaml (there must be n)
// against the story <base>/app.yaml, one subtest each, and fails each
// flow that does not pass.
func wantStoryFlowsPass(t *testing.T, base string, n int) {
	t.Helper()
	app, _ := filepath.Abs(filepath.Join(base, "app.yaml"))
	files, _, err := Discover([]string{app}, filepath.Join(base, "flows", "*.yaml"), false, nil)
	if err != nil || len(files) != n {
		t.Fatalf("%s: %v, %d flows, want %d", base, err, len(files), n)
	}
	for _, r := range NewRunner(Options{Jobs: 1}).Run(context.Background(), files) {
		t.Run(filepath.Base(r.Name), func(t *testing.T) { wantPass(t, r) })
	}
}
