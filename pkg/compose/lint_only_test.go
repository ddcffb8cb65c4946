package compose

import (
	"errors"
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
