package testrun

import (
	"fmt"
	"io"

	"kitsoki/internal/termsafe"
	"kitsoki/pkg/flowtest"
)

// A LoadError is a story of the run that does not load (Err is what
// [flowtest.Runner.Story] returned) or, when Assembly, whose plugin
// assembly the operator profile refuses (Err is what
// [flowtest.Runner.Plan] returned).
type LoadError struct {
	App      string
	Assembly bool
	Err      error
}

func (e *LoadError) Error() string { return fmt.Sprintf("%s: %v", e.App, e.Err) }
func (e *LoadError) Unwrap() error { return e.Err }

// Load loads every story of files and resolves its plugin assembly before
// anything runs, so a story that cannot run stops the run before its
// first fixture; it writes to w a line for each external plugin --sandbox
// leaves unstarted (once per plugin). Its error is a *LoadError.
func Load(w io.Writer, runner *flowtest.Runner, files []*flowtest.File) error {
	apps, noted := flowtest.Stories(files), map[string]bool{}
	runner.Preload(apps)
	for _, app := range apps {
		if _, err := runner.Story(app); err != nil {
			return &LoadError{App: app, Err: err}
		}
		plan, err := runner.Plan(app)
		if err != nil {
			return &LoadError{App: app, Assembly: true, Err: err}
		}
		for _, p := range plan.Assembly.NotStarted() {
			if !noted[p.ID] {
				noted[p.ID] = true
				fmt.Fprintf(w, "kitsoki test: --sandbox: external plugin %s (%s) is not started; its hooks do not run\n", termsafe.Line(p.ID), termsafe.Line(p.Manifest))
			}
		}
	}
	return nil
}
