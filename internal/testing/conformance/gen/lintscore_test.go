package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
)

// TestLintScoreNested: lintscore scores every story dir at any depth (a
// conformance golden's clock/fail-landing beside top-level ones), by its
// path below the batch, and no imported child (no report beside it).
func TestLintScoreNested(t *testing.T) {
	dir := t.TempDir()
	failing := `{"Results":[{"File":"flows/f.yaml","Passed":false}],"Passed":0,"Failed":1}`
	flagged := func(d string) string {
		return `[{"file":"` + filepath.Join(dir, d, "flows", "f.yaml") + `","line":1,"column":1,"severity":"warning","rule":"flow-wrong-state","message":"m"}]`
	}
	files := map[string]string{
		"top/app.yaml":                   "",
		"top/upstream.json":              failing,
		"top/validate.json":              "[]",
		"top/kid/app.yaml":               "",
		"clock/fail/app.yaml":            "",
		"clock/fail/upstream.json":       failing,
		"clock/fail/validate.json":       flagged("clock/fail"),
		"clock/deeper/x/app.yaml":        "",
		"clock/deeper/x/upstream.json":   failing,
		"clock/deeper/x/validate.json":   flagged("clock/deeper/x"),
		"clock/deeper/x/kid/app.yaml":    "",
		"clock/deeper/x/kid/unrelated.t": "",
	}
	storytest.WriteTree(t, dir, files)
	var out strings.Builder
	s, unscored, err := lintScore(&out, dir, "validate.json")
	if err != nil {
		t.Fatal(err)
	}
	if s.fails != 3 || s.hits != 2 || unscored != 0 {
		t.Errorf("fails %d hits %d unscored %d, want 3, 2, 0:\n%s", s.fails, s.hits, unscored, &out)
	}
	for _, want := range []string{"clock/fail: upstream fails 1, validate flags 1", "clock/deeper/x: upstream fails 1, validate flags 1", "top: upstream fails 1, validate flags 0"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("no line %q in:\n%s", want, &out)
		}
	}
}

// TestLintScoreVerdicts: only a finding that says the fixture fails flags
// it, in its own document of a file of several fixtures; a description
// (flow-unknown-state, a fixture's flow-shape error) or a story error that
// does not stop the run is counted apart, and a blocking story error flags
// every fixture.
func TestLintScoreVerdicts(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "s", "flows", "f.yaml")
	at := func(line int, sev, rule string) string {
		return fmt.Sprintf(`{"file":%q,"line":%d,"column":1,"severity":%q,"rule":%q,"message":"m"}`, f, line, sev, rule)
	}
	app := filepath.Join(dir, "s", "app.yaml")
	storytest.WriteTree(t, dir, map[string]string{
		"s/app.yaml":      "",
		"s/flows/f.yaml":  "test_kind: flow\nturns: []\n---\ntest_kind: flow\nturns: []\n---\ntest_kind: flow\nturns: []\n",
		"s/upstream.json": `{"Results":[{"File":"flows/f.yaml","Passed":true},{"File":"flows/f.yaml","Passed":false},{"File":"flows/f.yaml","Passed":true}],"Passed":2,"Failed":1}`,
		"s/validate.json": "[" + at(5, "warning", "flow-wrong-state") + "," + at(1, "warning", "flow-unknown-state") + "," +
			at(7, "error", "flow-shape") + "," + fmt.Sprintf(`{"file":%q,"line":1,"column":1,"severity":"error","rule":"pongo","message":"m"}`, app) + "]",
	})
	var out strings.Builder
	s, _, err := lintScore(&out, dir, "validate.json")
	if err != nil {
		t.Fatal(err)
	}
	if s.fails != 1 || s.hits != 1 || s.passes != 2 || s.falsePos != 0 || s.described != 2 {
		t.Errorf("fails %d hits %d passes %d false positives %d described %d, want 1, 1, 2, 0, 2:\n%s", s.fails, s.hits, s.passes, s.falsePos, s.described, &out)
	}
	storytest.WriteTree(t, dir, map[string]string{
		"s/validate.json": "[" + fmt.Sprintf(`{"file":%q,"line":1,"column":1,"severity":"error","rule":"story-nope","message":"m"}`, app) + "]",
	})
	out.Reset()
	if s, _, _ = lintScore(&out, dir, "validate.json"); s.hits != 1 || s.falsePos != 2 {
		t.Errorf("a blocking story error: hits %d false positives %d, want 1, 2:\n%s", s.hits, s.falsePos, &out)
	}
}

// TestLintScoreAbortedRunIgnoresStaleGolden: a mutated story carries its
// golden's upstream.json; when upstream aborted this run (existing.log
// names the fixture and turn, no existing.json), the story is scored from
// the abort (that fixture failed) and never from the stale report, which
// says the fixture passes.
func TestLintScoreAbortedRunIgnoresStaleGolden(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "s", "flows", "f.yaml")
	storytest.WriteTree(t, dir, map[string]string{
		"s/app.yaml":      "",
		"s/flows/f.yaml":  "",
		"s/flows/g.yaml":  "",
		"s/upstream.json": `{"Results":[{"File":"flows/f.yaml","Passed":true},{"File":"flows/g.yaml","Passed":true}],"Passed":2,"Failed":0}`,
		"s/existing.log":  `kitsoki test flows: run flow "flows/f.yaml": turn 1: machine.Turn: render state view for "b": boom` + "\n",
		"s/validate.json": fmt.Sprintf(`[{"file":%q,"line":1,"column":1,"severity":"warning","rule":"flow-wrong-state","message":"m"}]`, f),
		// a timing abort is no verdict: not scored, nor from upstream.json
		"t/app.yaml":      "",
		"t/upstream.json": `{"Results":[{"File":"flows/f.yaml","Passed":true}],"Passed":1,"Failed":0}`,
		"t/existing.log":  `kitsoki test flows: run flow "flows/f.yaml": turn 2: WaitIdle: context deadline exceeded` + "\n",
		"t/validate.json": "[]",
	})
	var out strings.Builder
	s, unscored, err := lintScore(&out, dir, "validate.json")
	if err != nil {
		t.Fatal(err)
	}
	if s.fails != 1 || s.hits != 1 || s.passes != 0 || s.falsePos != 0 || unscored != 1 {
		t.Errorf("fails %d hits %d passes %d false positives %d unscored %d, want 1, 1, 0, 0, 1:\n%s", s.fails, s.hits, s.passes, s.falsePos, unscored, &out)
	}
	if !strings.Contains(out.String(), "s (aborted): upstream fails 1, validate flags 1") {
		t.Errorf("no aborted line in:\n%s", &out)
	}
}
