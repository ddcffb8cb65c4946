package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/pkg/diag"
	"kitsoki/pkg/flowtest"
)

// The expect stories gen writes load here; every fixture key upstream's
// runner reads is drawn over a few stories; the fixtures the model
// predicts to pass ("note: clean") mostly pass; the same seed writes the
// same bytes.
func TestExpectStoriesRun(t *testing.T) {
	t.Parallel()
	const n = 40
	dir := writeSeeded(t, writeExpect, n, 13, "000/app.yaml", "001/flows/f0.yaml", "001/flows/f1.yaml", "001/flows/cassettes/ok.cassette.yaml")
	want := []string{
		// top level
		"expect_terminal: true", "expect_terminal: false", "expect_no_errors:", "expect_world_final:",
		"expect_events_count_atleast:", "expect_events_count_atmost:", "expect_no_host_calls:",
		"mode: staged", "mode: one-shot", "mode: oneshot", "use_orchestrator: true", "use_orchestrator: false",
		"initial_state: nowhere", "initial_state: c/c1", "initial_state: c\n", "initial_world: {}", "zz: undeclared", "bogus_top:", "note:",
		// turn level
		"expect_state:", "expect_not_state:", "expect_state_in: []", "expect_state_in:", "expect_world:", "expect_world_full:",
		"expect_world_unchanged:", "expect_slots:", "expect_events:", "expect_events_exact:", "advance_clock:",
		"kind: world.update",
		"expect_error:", "allowed_contains:", "missing_slots:", "guard_hint: anything", "display_input:",
		"expect_view_matches:", "expect_no_view:", "expect_host_calls:", "world_override:", "expect_inbox:",
		"host_cassette: cassettes/ok.cassette.yaml", "strict_cassette_coverage: true",
		"then:", "bogus_turn_key:", "\n      expect_terminal:", "\n      expect_world_final:",
		// story
		"terminal: true", "'@exit:out'", "type: parallel", "type: compound", "when: world.n >", "required: true",
	}
	assertDrawn(t, dir, want)
	var files []*flowtest.File
	fatal := 0
	for i := range n {
		d := filepath.Join(dir, fmt.Sprintf("%03d", i))
		fs, ds, err := flowtest.DiscoverUnder("", nil, []string{filepath.Join(d, "app.yaml")}, filepath.Join(d, "flows", "*.yaml"), false, nil)
		if err != nil {
			t.Fatalf("%s: %v", d, err)
		}
		if hasError(ds) {
			fatal++ // a bad mode or a cassette with handlers: the whole run stops
			continue
		}
		files = append(files, fs...)
	}
	if fatal == 0 || fatal > n/5 {
		t.Errorf("%d of %d stories hold a fatal fixture", fatal, n)
	}
	// the model predicts well: most fixtures pass (mixed ones fail some)
	passed, total := 0, 0
	for _, r := range runClean(t, files, n-fatal) {
		total++
		if r.Passed() {
			passed++
		}
	}
	if passed*2 < total {
		t.Errorf("only %d of %d fixtures pass", passed, total)
	}
}

func hasError(ds []diag.Diagnostic) bool {
	for _, d := range ds {
		if d.Severity == diag.Error {
			return true
		}
	}
	return false
}

// summaryDiff compares the last two lines of the engines' text output.
func TestSummaryDiff(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	ex := write("existing.log", "PASS  f.yaml\n\nSummary: 1/1 flows pass\nPASS\n")
	same := write("same.log", "ok  f.yaml\n1 passed, 0 failed\nSummary: 1/1 flows pass\nPASS\n")
	other := write("other.log", "FAIL  f.yaml\nSummary: 0/1 flows pass\nFAIL\n")
	if d := summaryDiff(ex, same); d != "" {
		t.Errorf("same summary: %s", d)
	}
	if d := summaryDiff(ex, other); !strings.Contains(d, "0/1") {
		t.Errorf("different summary: %q", d)
	}
	if d := summaryDiff(ex, filepath.Join(dir, "missing.log")); d != "" {
		t.Errorf("missing log: %s", d)
	}
}
