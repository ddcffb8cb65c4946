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
// more than fold.MaxRepeats world resets (45 levels of 1,000 keys with a
// default: 1,035,000) is an error of validate's, at the import whose
// wrapper crosses the limit (the top's: resets are charged deepest first), naming it and the fix, as run and test refuse it; 44
// levels (990,000 resets) validate clean, and run folds them.
func TestValidateReportsFoldRepeats(t *testing.T) {
	if testing.Short() {
		t.Skip("folds a million world resets")
	}
	over := filepath.Join(storytest.WorldChain(t, 45, 1000), StoryFile)
	res := Run([]string{over}, Options{Story: story.Options{AllowUnsetEnv: true}})
	if len(res.Diagnostics) != 1 || !res.Invalid[over] {
		t.Fatalf("45 levels: %d findings, want 1:\n%s", len(res.Diagnostics), storytest.Render(res.Diagnostics))
	}
	d := res.Diagnostics[0]
	for _, want := range []string{`imports.n: source "./c0"`, fmt.Sprint(fold.MaxRepeats), "import fewer levels deep"} {
		if !strings.Contains(d.Message, want) {
			t.Errorf("message does not say %q: %s", want, d.Message)
		}
	}
	if d.Severity != "error" || d.Rule != story.RuleImports.ID || d.File != over || d.Line != 3 {
		t.Errorf("finding %+v, want an imports error at an import", d)
	}

	under := filepath.Join(storytest.WorldChain(t, 44, 1000), StoryFile)
	if res := Run([]string{under}, Options{Story: story.Options{AllowUnsetEnv: true}}); len(res.Diagnostics) != 0 {
		t.Errorf("44 levels: want no finding:\n%s", storytest.Render(res.Diagnostics))
	}
}
