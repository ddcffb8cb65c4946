package junit

import (
	"encoding/xml"
	"fmt"
	"io"
	"slices"
	"strconv"

	"kitsoki/internal/termsafe"
)

// Suites is a whole report. [Write] fills in the counts.
type Suites struct {
	XMLName  xml.Name `xml:"testsuites"`
	Name     string   `xml:"name,attr"`
	Tests    int      `xml:"tests,attr"`
	Failures int      `xml:"failures,attr"`
	Skipped  *int     `xml:"skipped,attr,omitempty"`
	Time     string   `xml:"time,attr"`
	Suites   []Suite  `xml:"testsuite"`

	// CountSkipped writes the skipped attribute on the report and on
	// each suite, 0 included.
	CountSkipped bool `xml:"-"`
}

// Suite is one testsuite; Time is in seconds, as [Secs] writes it.
type Suite struct {
	Name       string      `xml:"name,attr"`
	Tests      int         `xml:"tests,attr"`
	Failures   int         `xml:"failures,attr"`
	Skipped    *int        `xml:"skipped,attr,omitempty"`
	Time       string      `xml:"time,attr"`
	Timestamp  string      `xml:"timestamp,attr,omitempty"`
	Properties *Properties `xml:"properties,omitempty"`
	Cases      []Case      `xml:"testcase"`
}

// Properties is a suite's properties element, written even when empty.
type Properties struct {
	List []Property `xml:"property"`
}

// Property is a name and value a suite was run with.
type Property struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

// Case is one testcase: failed when Failure is set, skipped when Skipped is.
type Case struct {
	Name      string    `xml:"name,attr"`
	Classname string    `xml:"classname,attr"`
	File      string    `xml:"file,attr,omitempty"`
	Line      int       `xml:"line,attr,omitempty"`
	Time      string    `xml:"time,attr"`
	Failure   *Failure  `xml:"failure,omitempty"`
	Skipped   *struct{} `xml:"skipped,omitempty"`
	SystemOut string    `xml:"system-out,omitempty"`
}

// Failure is why a case failed: a one-line message and a body.
type Failure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Body    string `xml:",chardata"`
}

// Secs is a time in seconds as every time attribute writes it.
func Secs(s float64) string { return fmt.Sprintf("%.3f", s) }

// Add appends case c, which took secs, to the suite named suite (a new
// one at the end when there is none yet), whose time grows by secs. The
// name is escaped first, so two names that print alike are one suite.
func (top *Suites) Add(suite string, c Case, secs float64) {
	suite = termsafe.Line(suite)
	i := slices.IndexFunc(top.Suites, func(s Suite) bool { return s.Name == suite })
	if i < 0 {
		i = len(top.Suites)
		top.Suites = append(top.Suites, Suite{Name: suite})
	}
	s := &top.Suites[i]
	// The sum is kept as the attribute text, rounded at each case.
	cur, _ := strconv.ParseFloat(s.Time, 64)
	s.Time = Secs(cur + secs)
	s.Cases = append(s.Cases, c)
}

// Write counts the cases of each suite and of the report, escapes every
// text as the other reports escape it (termsafe), so a name or failure
// holding a bidi control or an escape sequence cannot reorder or restyle
// what a CI's test view shows, and writes the report as an XML document
// with a trailing newline. It changes top in place.
func Write(w io.Writer, top *Suites) error {
	top.Tests, top.Failures, top.Skipped = 0, 0, nil
	skipped := 0
	for i := range top.Suites {
		s := &top.Suites[i]
		s.Name, s.Timestamp = termsafe.Line(s.Name), termsafe.Line(s.Timestamp)
		if s.Properties != nil {
			for j := range s.Properties.List {
				p := &s.Properties.List[j]
				p.Name, p.Value = termsafe.Line(p.Name), termsafe.Line(p.Value)
			}
		}
		s.Tests, s.Failures, s.Skipped = len(s.Cases), 0, nil
		n := 0
		for j := range s.Cases {
			c := &s.Cases[j]
			c.Name, c.Classname, c.File = termsafe.Line(c.Name), termsafe.Line(c.Classname), termsafe.Line(c.File)
			c.SystemOut = termsafe.Printable(c.SystemOut)
			if f := c.Failure; f != nil {
				f.Message, f.Type, f.Body = termsafe.Line(f.Message), termsafe.Line(f.Type), termsafe.Printable(f.Body)
				s.Failures++
			}
			if c.Skipped != nil {
				n++
			}
		}
		if top.CountSkipped {
			s.Skipped = &n
		}
		top.Tests += s.Tests
		top.Failures += s.Failures
		skipped += n
	}
	if top.CountSkipped {
		top.Skipped = &skipped
	}
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
