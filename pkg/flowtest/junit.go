package flowtest

import (
	"cmp"
	"encoding/xml"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"kitsoki/internal/termsafe"
)

// JUnit XML (the dialect Jenkins, GitLab and GitHub test reporters read):
// one testsuite per story, one testcase per flow document.
type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Skipped  int          `xml:"skipped,attr"`
	Time     string       `xml:"time,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Skipped  int         `xml:"skipped,attr"`
	Time     string      `xml:"time,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	File      string        `xml:"file,attr,omitempty"`
	Line      int           `xml:"line,attr,omitempty"`
	Time      string        `xml:"time,attr"`
	Failure   *junitFailure `xml:"failure,omitempty"`
	Skipped   *struct{}     `xml:"skipped,omitempty"`
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Body    string `xml:",chardata"`
}

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
		c := junitCase{Name: r.Name, Classname: suite, File: r.Flow.File, Time: fmt.Sprintf("%.3f", secs)}
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
	top.Time = fmt.Sprintf("%.3f", total)
	return top.write(w)
}

// add adds case c, which took secs, to the suite named suite (a new one
// at the end when there is none yet), counting it there and in top. Every
// text is escaped as the other reports escape it (termsafe), so a fixture
// name or failure holding a bidi control or an escape sequence cannot
// reorder or restyle what a CI's test view shows.
func (top *junitSuites) add(suite string, c junitCase, secs float64) {
	suite = termsafe.Line(suite)
	c.Name, c.Classname, c.File = termsafe.Line(c.Name), termsafe.Line(c.Classname), termsafe.Line(c.File)
	if c.Failure != nil {
		f := *c.Failure
		f.Message, f.Type, f.Body = termsafe.Line(f.Message), termsafe.Line(f.Type), termsafe.Printable(f.Body)
		c.Failure = &f
	}
	i := slices.IndexFunc(top.Suites, func(s junitSuite) bool { return s.Name == suite })
	if i < 0 {
		i = len(top.Suites)
		top.Suites = append(top.Suites, junitSuite{Name: suite})
	}
	s := &top.Suites[i]
	s.Tests++
	top.Tests++
	if c.Failure != nil {
		s.Failures++
		top.Failures++
	}
	if c.Skipped != nil {
		s.Skipped++
		top.Skipped++
	}
	s.Time = addSecs(s.Time, secs)
	s.Cases = append(s.Cases, c)
}

// write writes the report as an XML document with a trailing newline.
func (top *junitSuites) write(w io.Writer) error {
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(top); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

func addSecs(cur string, secs float64) string {
	var f float64
	fmt.Sscanf(cur, "%g", &f)
	return fmt.Sprintf("%.3f", f+secs)
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
