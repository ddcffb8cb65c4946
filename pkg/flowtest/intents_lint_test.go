package flowtest

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The intent fixtures of the goldens that rely on what upstream does
// silently get a warning each, positioned; the cloak corpus gets none.
func TestLintIntentSources(t *testing.T) {
	for _, c := range []struct {
		dir  string
		want []string // "line:rule" of every warning, in order
	}{
		{"testdata/intents-conformance/intent-block", []string{"5:flow-unknown-intent", "8:flow-unknown-intent", "11:flow-ignored-key", "15:flow-ignored-key", "19:flow-ignored-key"}},
		{"testdata/intents-conformance/no-allowed-intents", []string{"2:flow-unknown-state"}},
		{"testdata/intents-conformance/loose-numbers", []string{"20:flow-unknown-intent"}},
		{"testdata/intents-conformance/slot-bag", nil},
		// fixtures whose every input misses the recording (not the
		// expect_failure ones, whose misses pass)
		{"testdata/intents-conformance/skipped-threshold", []string{"6:flow-not-checked", "12:flow-not-checked"}},
		{"testdata/intents-conformance/static-recording-empty", []string{"6:flow-not-checked"}},
	} {
		app := filepath.Join(c.dir, "app.yaml")
		ld, err := NewRunner(Options{}).Story(app)
		if err != nil || ld.Story == nil {
			t.Fatalf("%s: %v", app, err)
		}
		sources := map[string][]byte{}
		var got []string
		for _, d := range LintIntentSources(app, ld.Story, sources) {
			got = append(got, strings.Join([]string{itoa(d.Line), d.Rule}, ":"))
			if !strings.Contains(d.File, "intents") || d.Col == 0 || d.Message == "" {
				t.Errorf("%s: %+v", c.dir, d)
			}
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: warnings %v, want %v", c.dir, got, c.want)
		}
		if len(sources) == 0 {
			t.Errorf("%s: the files read are not handed back for ignore comments", c.dir)
		}
	}
	states := LintIntentSources(filepath.Join("testdata/intents-conformance/state-paths", "app.yaml"), nil, map[string][]byte{})
	if states != nil {
		t.Errorf("no story, no findings: %v", states)
	}
}
