package flowtest

import (
	"cmp"
	"io"
	"path/filepath"
	"strings"

	"kitsoki/internal/junit"
)

// WriteJUnit writes results as JUnit XML: one testsuite per story and one
// testcase per flow document (the intents report, intents_baseline.go,
// has one suite per state).
func WriteJUnit(w io.Writer, results []*Result) error {
	top := junit.Suites{Name: "kitsoki test", CountSkipped: true}
	var total float64
	for _, r := range results {
		if r.Flow == nil {
			continue
		}
		suite := cmp.Or(r.Story, filepath.Dir(filepath.Dir(r.Flow.File)))
		secs := r.Duration.Seconds()
		total += secs
		c := junit.Case{Name: r.Name, Classname: suite, File: r.Flow.File, Time: junit.Secs(secs)}
		switch {
		case r.Flow.Skipped:
			c.Skipped = &struct{}{}
		case !r.Flow.Passed:
			var body strings.Builder
			msg := ""
			for _, f := range r.allFailures() {
				if msg == "" {
					msg = f.Message
					c.Line = f.Pos.Line
				}
				body.WriteString(f.Detail())
				body.WriteString("\n")
			}
			c.Failure = &junit.Failure{Message: firstLine(msg), Type: "flow", Body: body.String()}
		}
		top.Add(suite, c, secs)
	}
	top.Time = junit.Secs(total)
	return junit.Write(w, &top)
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// junitFromReport is a (merged) JSON report as results, each failure at
// its file.
func junitFromReport(r *Report) []*Result {
	var out []*Result
	for _, f := range r.Results {
		res := &Result{Name: f.File, Flow: f}
		for _, t := range f.Turns {
			for _, msg := range t.Failures {
				res.Failures = append(res.Failures, Failure{Turn: t.TurnIndex, Message: msg, Pos: Pos{File: f.File}})
			}
		}
		out = append(out, res)
	}
	return out
}

// WriteJUnitReport writes a (merged) JSON report as JUnit XML.
func WriteJUnitReport(w io.Writer, r *Report) error { return WriteJUnit(w, junitFromReport(r)) }
