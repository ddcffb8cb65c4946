package main

import (
	"fmt"
	"path/filepath"
	"testing"

	"kitsoki/pkg/flowtest"
)

// The intent stories gen writes load here and their fixtures run with no
// Go runtime text in any failure, view or event; both paths, every slot
// form and every intent form are drawn; the same seed writes the same
// bytes; and most turns pass (the fixture's predictions hold here).
func TestIntentStoriesRun(t *testing.T) {
	t.Parallel()
	const n = 30
	dir := writeSeeded(t, writeIntent, n, 13, "000/app.yaml", "001/flows/f0.yaml", "001/flows/f1.yaml")
	var files []*flowtest.File
	want := []string{
		// paths
		"use_orchestrator: true", "use_orchestrator: false",
		// declarations
		"required: true", "default:", "values:", "type: enum", "hidden: true", "checkpoint_intents:",
		"default_intent: note", "transcript:", "meta_modes:", `'*':`, "emit_intent:",
		// slot uses
		"{{ slots }}", "guard_hint:", "slots.a == nil", "w: w-{{ slots.",
		// fixture values and assertions
		"name: ghost", "name: orphan", "zz:", "k: v", "{{ world.n }}", "99999999999999999999", "-0",
		"expect_error:", "missing_slots:", "allowed_contains:", "expect_slots:", "expect_state:",
		"world_override:",
	}
	for i := range n {
		d := filepath.Join(dir, fmt.Sprintf("%03d", i))
		fs, ds, err := flowtest.DiscoverUnder("", nil, []string{filepath.Join(d, "app.yaml")}, filepath.Join(d, "flows", "*.yaml"), false, nil)
		if err != nil || len(ds) > 0 || len(fs) != 2 {
			t.Fatalf("%s: fixtures %d, diagnostics %v, error %v", d, len(fs), ds, err)
		}
		files = append(files, fs...)
	}
	assertDrawn(t, dir, want)
	// the fixtures' predictions (intent_sim.go) hold: most fixtures pass
	results := runClean(t, files, n)
	turns, passed, whole := 0, 0, 0
	for _, r := range results {
		if r.Flow == nil {
			continue
		}
		if r.Passed() {
			whole++
		}
		for _, tr := range r.Flow.Turns {
			turns++
			if tr.Passed {
				passed++
			}
		}
	}
	t.Logf("%d of %d turns, %d of %d fixtures pass", passed, turns, whole, len(results))
	if passed*10 < turns*8 || whole*2 < len(results) {
		t.Errorf("%d of %d turns, %d of %d fixtures pass: the fixtures' predictions fail", passed, turns, whole, len(results))
	}
}
