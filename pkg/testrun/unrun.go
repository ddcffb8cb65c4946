package testrun

import (
	"fmt"
	"io"
	"strings"

	"kitsoki/internal/junit"
	"kitsoki/pkg/diag"
)

// NotRunError is the error of a run refused before any fixture ran: the
// fixtures' diagnostics (Diags) hold an error. Its text is the command's
// last line; the diagnostics were printed before it.
type NotRunError struct {
	Diags []diag.Diagnostic
}

func (e *NotRunError) Error() string {
	errs, _ := diag.Count(e.Diags)
	return fmt.Sprintf("%d fixture error(s): the fixtures above cannot run; fix them (nothing was run)", errs)
}

// notRunSuite names the JUnit suite of the files a run could not start with.
const notRunSuite = "kitsoki test: not run"

// WriteNotRunJUnit writes the --junit report (junitOut; - for stdout, ""
// for none) of a run that could not start: one failed case per file with
// an error among ds, at the first error's line, its message that error and
// its body every finding of the file, so a CI's test view shows why nothing
// ran instead of finding no report.
func WriteNotRunJUnit(stdout io.Writer, junitOut string, ds []diag.Diagnostic) error {
	if junitOut == "" {
		return nil
	}
	top := junit.Suites{Name: "kitsoki test", CountSkipped: true}
	cases := map[string]*junit.Case{}
	var order []string
	bodies := map[string]*strings.Builder{}
	for _, d := range diag.Sort(ds) {
		if bodies[d.File] == nil {
			bodies[d.File] = &strings.Builder{}
		}
		bodies[d.File].WriteString(d.String() + "\n")
		if d.Severity != diag.Error || cases[d.File] != nil {
			continue
		}
		cases[d.File] = &junit.Case{Name: d.File, Classname: notRunSuite, File: d.File, Line: d.Line, Time: junit.Secs(0),
			Failure: &junit.Failure{Message: d.Message, Type: "load"}}
		order = append(order, d.File)
	}
	for _, file := range order {
		c := cases[file]
		c.Failure.Body = bodies[file].String()
		top.Add(notRunSuite, *c, 0)
	}
	top.Time = junit.Secs(0)
	return WriteFiles(stdout, "", junitOut, nil, func(w io.Writer) error { return junit.Write(w, &top) })
}
