package flowtest

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"kitsoki/internal/testing/aliasmb"
	"kitsoki/internal/testing/storytest"
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
		// the keys merge keys bring (an intent: {<<: *deep} has a name)
		{"testdata/intents-conformance/merge-keys", nil},
		// leaves the story lacks, or written before the last "#"; the
		// configurations of known leaves get none, whatever their root
		{"testdata/intents-conformance/parallel-state", []string{"32:flow-unknown-state", "42:flow-unknown-state", "62:flow-unknown-state", "72:flow-unknown-state", "82:flow-unknown-state"}},
		// fixtures whose every input misses the recording (not the
		// expect_failure ones, whose misses pass)
		{"testdata/intents-conformance/skipped-threshold", []string{"6:flow-not-checked", "12:flow-not-checked"}},
		{"testdata/intents-conformance/static-recording-empty", []string{"6:flow-not-checked", "8:flow-not-checked"}},
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
	// an any_of with no code test intents gives passes only on misses
	dir := storytest.TempTree(t, map[string]string{
		"app.yaml":       "app: {id: l, version: 0.1.0}\nintents: {go: {}}\nroot: a\nstates:\n  a: {on: {go: [{target: a}]}}\n",
		"intents/a.yaml": "test_kind: intents\nstate: a\nfixtures:\n  - {id: x, expect_failure: {any_of: [UNKNOWN_INTENT, GUARD_FAILED]}, inputs: [q]}\n  - {id: y, expect_failure: {any_of: [UNKNOWN_INTENT, clarify]}, inputs: [q]}\n",
	})
	ld, err := NewRunner(Options{}).Story(filepath.Join(dir, "app.yaml"))
	if err != nil || ld.Story == nil {
		t.Fatal(err)
	}
	if ds := LintIntentSources(filepath.Join(dir, "app.yaml"), ld.Story, map[string][]byte{}); len(ds) != 1 || ds[0].Line != 4 || ds[0].Rule != "flow-not-checked" {
		t.Errorf("any_of with no judged code: %v", ds)
	}
	states := LintIntentSources(filepath.Join("testdata/intents-conformance/state-paths", "app.yaml"), nil, map[string][]byte{})
	if states != nil {
		t.Errorf("no story, no findings: %v", states)
	}
}

// An intents file past the alias text bound is one finding, test intents'
// refusal: validate walks nothing more of it (redteam22: a 1 MB file
// naming a 1 MB anchor as 2,000 inputs kept validate busy 10.7 s checking
// each input against the recording).
func TestLintIntentSourcesStopsAtTheAliasBound(t *testing.T) {
	big := "test_kind: intents\nstate: nowhere\nfixtures:\n  - id: x\n    intent: {name: go, slots: " + aliasmb.Anchors() + "}\n    inputs: [x]\n" + strings.Repeat("  - {id: y, intent: {name: go, slots: {v: *mb}}, inputs: [x]}\n", 70)
	dir := storytest.TempTree(t, map[string]string{
		"app.yaml":         "app: {id: l, version: 0.1.0}\nintents: {go: {}}\nroot: a\nstates:\n  a: {on: {go: [{target: a}]}}\n",
		"intents/big.yaml": big,
	})
	ld, err := NewRunner(Options{}).Story(filepath.Join(dir, "app.yaml"))
	if err != nil || ld.Story == nil {
		t.Fatal(err)
	}
	ds := LintIntentSources(filepath.Join(dir, "app.yaml"), ld.Story, map[string][]byte{})
	if len(ds) != 1 || ds[0].Rule != ruleIntentsRefused.ID || !strings.Contains(ds[0].Message, "MB of text by here") {
		t.Errorf("want the refusal alone, got %d findings: %.500v", len(ds), ds)
	}
}
