package validate

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
	"kitsoki/pkg/fold"
	"kitsoki/pkg/story"
)

// TestValidateReportsFoldRepeats: a chain of imports whose fold repeats
// more than the fold's limit (Options.MaxRepeats: here 10,000, the
// production fold.MaxRepeats a hundred times that, pinned by
// TestValidateFoldsWithTheProductionLimit) world resets (45 levels of 10
// keys with a default: 10,350) is an error of validate's, at the import
// whose wrapper crosses the limit (the top's: resets are charged deepest
// first), naming it and the fix, as run and test refuse it; 44 levels
// (9,900 resets) validate clean, and run folds them.
func TestValidateReportsFoldRepeats(t *testing.T) {
	const limit = 10_000
	opts := Options{Story: story.Options{AllowUnsetEnv: true}, MaxRepeats: limit}
	over := filepath.Join(storytest.WorldChain(t, 45, 10), StoryFile)
	res := Run([]string{over}, opts)
	if len(res.Diagnostics) != 1 || !res.Invalid[over] {
		t.Fatalf("45 levels: %d findings, want 1:\n%s", len(res.Diagnostics), storytest.Render(res.Diagnostics))
	}
	d := res.Diagnostics[0]
	for _, want := range []string{`imports.n: source "./c0"`, "more than " + fmt.Sprint(limit) + " world resets", "import fewer levels deep"} {
		if !strings.Contains(d.Message, want) {
			t.Errorf("message does not say %q: %s", want, d.Message)
		}
	}
	if d.Severity != "error" || d.Rule != story.RuleImports.ID || d.File != over || d.Line != 3 {
		t.Errorf("finding %+v, want an imports error at an import", d)
	}

	under := filepath.Join(storytest.WorldChain(t, 44, 10), StoryFile)
	if res := Run([]string{under}, opts); len(res.Diagnostics) != 0 {
		t.Errorf("44 levels: want no finding:\n%s", storytest.Render(res.Diagnostics))
	}
	// The production limit (the zero Options') folds the 45 levels clean.
	if res := Run([]string{over}, Options{Story: opts.Story}); len(res.Diagnostics) != 0 {
		t.Errorf("45 levels, production limit: want no finding:\n%s", storytest.Render(res.Diagnostics))
	}
}

// TestValidateFoldsWithTheProductionLimit: validate's Options{} (what
// kitsoki validate passes) fold with fold.MaxRepeats, the limit run and
// test fold with (the engine's fold options name none: fold's
// TestProductionRepeatLimit), and folds as a run does, phases expanded.
func TestValidateFoldsWithTheProductionLimit(t *testing.T) {
	fo := foldOptions(Options{}.MaxRepeats)
	if got := fo.RepeatLimit(); got != fold.MaxRepeats {
		t.Errorf("validate folds with a limit of %d, want fold.MaxRepeats (%d)", got, fold.MaxRepeats)
	}
	if fo.Phases == nil {
		t.Error("validate folds without expanding phases, unlike run")
	}
	if got := foldOptions(5).RepeatLimit(); got != 5 {
		t.Errorf("Options.MaxRepeats 5: the fold's limit is %d", got)
	}
}
