package compose

import (
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
	"kitsoki/pkg/diag"
)

// A finding kitsoki validate reports as an error but the existing engine's
// loader accepts (here a dangling on_error) does not stop a run: it is a
// warning of the loaded story. A blocking one (an unknown root) does.
func TestLintOnlyErrorsDoNotStopARun(t *testing.T) {
	write := func(body string) string { return storytest.TempTree(t, map[string]string{"app.yaml": body}) }
	ld, err := Load(write(lintOnlyStory), LoadOptions{})
	if err != nil {
		t.Fatalf("a lint-only error stopped the load: %v", err)
	}
	if ld.Machine == nil || ld.CompileErr != nil {
		t.Fatalf("not compiled: %v", ld.CompileErr)
	}
	if len(ld.LintWarnings) == 0 || ld.LintWarnings[0].Severity != diag.Warning || !strings.Contains(ld.LintWarnings[0].Message, "nowhere") {
		t.Fatalf("lint warnings %+v", ld.LintWarnings)
	}
	_, err = Load(write("app: {id: lint}\nroot: nowhere\nstates:\n  start: {terminal: true}\n"), LoadOptions{})
	var le *LoadError
	if !errors.As(err, &le) || len(le.Diagnostics) == 0 || le.Diagnostics[0].Rule != "root" {
		t.Fatalf("a blocking error loaded: %v", err)
	}
}

// emitCycleStory has a lint-only error of a lint-only rule's pass (an
// unguarded emit chain back to where it started).
const emitCycleStory = `app: {id: lint}
intents: {ping: {}, pong: {}}
root: a
states:
  a:
    on:
      ping: [{target: b, effects: [{emit_intent: pong}]}]
      pong: [{target: a}]
  b:
    on:
      pong: [{target: a, effects: [{emit_intent: ping}]}]
      ping: [{target: b}]
`

// A Runnable load (kitsoki test's) leaves out the lint-only rules' checks
// and so their findings, and refuses what a whole load refuses, with the
// same errors; Strict checks everything whatever Runnable says.
func TestRunnableLoadRefusesAlike(t *testing.T) {
	write := func(body string) string { return storytest.TempTree(t, map[string]string{"app.yaml": body}) }
	rules := func(ds []diag.Diagnostic) []string {
		var out []string
		for _, d := range ds {
			out = append(out, d.Rule)
		}
		return out
	}
	app := write(emitCycleStory)
	full, err := Load(app, LoadOptions{})
	if err != nil {
		t.Fatalf("whole load: %v", err)
	}
	if !slices.Contains(rules(full.LintWarnings), "emit-cycle") {
		t.Fatalf("whole load's warnings %v", full.LintWarnings)
	}
	run, err := Load(app, LoadOptions{Runnable: true})
	if err != nil {
		t.Fatalf("runnable load: %v", err)
	}
	if run.Machine == nil || slices.Contains(rules(run.LintWarnings), "emit-cycle") {
		t.Fatalf("runnable load: compiled %v, warnings %v", run.Machine != nil, run.LintWarnings)
	}
	if _, err := Load(app, LoadOptions{Runnable: true, Strict: true}); err == nil {
		t.Error("a strict load skipped the lint-only checks")
	}
	broken := write(strings.Replace(emitCycleStory, "root: a", "root: nowhere", 1))
	var fe, re *LoadError
	if _, err := Load(broken, LoadOptions{}); !errors.As(err, &fe) {
		t.Fatalf("whole load of a broken story: %v", err)
	}
	if _, err := Load(broken, LoadOptions{Runnable: true}); !errors.As(err, &re) {
		t.Fatalf("runnable load of a broken story: %v", err)
	}
	if !reflect.DeepEqual(fe.Diagnostics, re.Diagnostics) || len(fe.Diagnostics) == 0 {
		t.Errorf("refusals differ:\n whole %v\n runnable %v", fe.Diagnostics, re.Diagnostics)
	}
}
