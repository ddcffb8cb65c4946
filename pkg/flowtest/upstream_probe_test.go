package flowtest

import (
	"context"
	"path/filepath"
	"testing"
)

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
	files, _, err := DiscoverUnder("", nil, []string{app}, filepath.Join(base, "flows", "*.yaml"), false, nil)
	if err != nil || len(files) != n {
		t.Fatalf("%s: %v, %d flows, want %d", base, err, len(files), n)
	}
	for _, r := range NewRunner(Options{Jobs: 1}).Run(context.Background(), files) {
		t.Run(filepath.Base(r.Name), func(t *testing.T) { wantPass(t, r) })
	}
}
