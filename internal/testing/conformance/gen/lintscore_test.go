package main

import (
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
