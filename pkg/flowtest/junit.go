package flowtest

import (
	"cmp"
	"io"
	"path/filepath"
	"strings"

	"kitsoki/internal/junit"
)

// A JUnit report has one testsuite per story and one testcase per flow
// document; the intents report (intents_baseline.go) has one per state.
type (
	junitSuites  junit.Suites
	junitCase    = junit.Case
	junitFailure = junit.Failure
)

// WriteJUnit writes results as JUnit XML.
func WriteJUnit(w io.Writer, results []*Result) error {
	top := junitSuites{Name: "kitsoki test"}
	var total float64
	for _, r := range results {
		if r.Flow == nil {
			continue
		}
		suite := cmp.Or(r.Story, filepath.Dir(filepath.Dir(r.Flow.File)))
		secs := r.Duration.Seconds()
		total += secs
		c := junitCase{Name: r.Name, Classname: suite, File: r.Flow.File, Time: junit.Secs(secs)}
		switch {
		case r.Flow.Skipped:
			c.Skipped = &struct{}{}
		case !r.Flow.Passed:
			var body strings.Builder
			msg := ""
			for _, f := range r.Failures {
				if msg == "" {
					msg = f.Message
					c.Line = f.Pos.Line
				}
				body.WriteString(f.Detail())
				body.WriteString("\n")
			}
			c.Failure = &junitFailure{Message: firstLine(msg), Type: "flow", Body: body.String()}
		}
		top.add(suite, c, secs)
	}
	top.Time = junit.Secs(total)
	return top.write(w)
}

// add adds case c, which took secs, to the suite named suite.
func (top *junitSuites) add(suite string, c junitCase, secs float64) {
	(*junit.Suites)(top).Add(suite, c, secs)
}

// write writes the report, with the skipped counts the flow reports carry.
func (top *junitSuites) write(w io.Writer) error {
	top.CountSkipped = true
	return junit.Write(w, (*junit.Suites)(top))
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
