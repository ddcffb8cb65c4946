package flowtest

import (
	"os"
	"path/filepath"
	"testing"

	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

func TestLint(t *testing.T) {
	st, ds := story.Load(rigApp, story.Options{})
	if diag.HasErrors(ds) {
		t.Fatal(ds)
	}
	fxs, pds := Parse("flows/l.yaml", []byte(`test_kind: flow
initial_state: nowhere
host_handlers:
  host.run: { data: {} }
  host.git: { data: {} }
turns:
  - intent: { name: fly }
    expect_state: bb
  - intent: { name: nosuch }
    expect_error: { code: INTENT_NOT_ALLOWED_IN_STATE }
    expect_state: a
  - intent: { name: go }
    expect_world_unchanged: true
`))
	if diag.HasErrors(pds) {
		t.Fatal(pds)
	}
	got := Lint(st, fxs)
	for _, w := range []struct {
		line int
		rule string
	}{{2, RuleUnknownState}, {5, RuleUnusedStub}, {7, RuleUnknownIntent}, {8, RuleUnknownState}, {11, RuleNotChecked}, {13, RuleNotChecked}} {
		found := false
		for _, d := range got {
			if d.Line == w.line && d.Rule == w.rule && d.Severity == diag.Warning {
				found = true
			}
		}
		if !found {
			t.Errorf("no %s at line %d in %v", w.rule, w.line, got)
		}
	}
	if len(got) != 6 {
		t.Errorf("want exactly 6 findings (nosuch under expect_error and host.run are fine): %v", got)
	}
}

// The corpus fixtures lint without an unknown state or intent: upstream
// passes all of them.
func TestLintCorpus(t *testing.T) {
	apps, _ := filepath.Glob(filepath.Join(corpusDir, "*", "app.yaml"))
	more, _ := filepath.Glob(filepath.Join(corpusDir, "*", "*", "app.yaml"))
	apps = append(apps, more...)
	if len(apps) == 0 {
		t.Skip("no corpus")
	}
	for _, app := range apps {
		if !HasFlows(app) {
			continue
		}
		st, ds := story.Load(app, story.Options{})
		if diag.HasErrors(ds) {
			continue
		}
		for _, d := range LintStory(app, st) {
			if d.Severity == diag.Error || d.Rule == RuleUnknownState || d.Rule == RuleUnknownIntent {
				t.Errorf("%s", d)
			} else if testing.Verbose() {
				t.Logf("%s", d)
			}
		}
	}
	_ = os.Getenv
}
