package eval

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"strings"

	"kitsoki/internal/termsafe"
)

// JUnit XML as CI test reporters read it: one testsuite per eval, one
// testcase per candidate, failed when the adherence bar refused it.
type junitSuites struct {
	XMLName  xml.Name   `xml:"testsuites"`
	Name     string     `xml:"name,attr"`
	Tests    int        `xml:"tests,attr"`
	Failures int        `xml:"failures,attr"`
	Time     string     `xml:"time,attr"`
	Suite    junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name       string          `xml:"name,attr"`
	Tests      int             `xml:"tests,attr"`
	Failures   int             `xml:"failures,attr"`
	Time       string          `xml:"time,attr"`
	Timestamp  string          `xml:"timestamp,attr,omitempty"`
	Properties []junitProperty `xml:"properties>property,omitempty"`
	Cases      []junitCase     `xml:"testcase"`
}

type junitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Time      string        `xml:"time,attr"`
	Failure   *junitFailure `xml:"failure,omitempty"`
	SystemOut string        `xml:"system-out,omitempty"`
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Body    string `xml:",chardata"`
}

// maxCaseSamples is the most failure samples one JUnit case lists.
const maxCaseSamples = 20

// RenderJUnit renders a report as JUnit XML: a candidate is a test case
// that fails when the adherence bar refused it, with its metrics and its
// failure samples in the body. A case's time is its calls' p50 latency ×
// calls (the report keeps no per-call times); the suite's is the run's
// wall time.
func RenderJUnit(r *Report) ([]byte, error) {
	s := junitSuite{Name: "eval " + r.Call, Timestamp: r.GeneratedAt}
	if d := r.Decision; d != nil {
		s.Properties = append(s.Properties, junitProperty{"strategy", d.Strategy})
		if d.SelectedProfile != "" {
			s.Properties = append(s.Properties, junitProperty{"selected", d.SelectedProfile + "/" + d.SelectedModel + "/" + d.SelectedEffort})
		}
	}
	// Each failed case lists up to maxCaseSamples of its samples; the
	// samples are grouped once, however many candidates a report has.
	samples := map[string][]string{}
	for _, fs := range r.FailureSamples {
		k := fs.Profile + "/" + fs.Model + "/" + fs.Effort
		if len(samples[k]) < maxCaseSamples {
			samples[k] = append(samples[k], fmt.Sprintf("example %s repeat %d: %s", fs.Example, fs.Repeat, fs.Reason))
		}
	}
	for _, c := range capRows(r.Candidates) {
		tc := junitCase{Name: c.Key(), Classname: "eval." + r.Call, Time: secs(float64(valueOr0i(c.P50LatencyMS)) * float64(c.ExamplesRun)), SystemOut: metricsLine(c)}
		if !c.Pass {
			var body strings.Builder
			body.WriteString(metricsLine(c) + "\n")
			for _, line := range samples[c.Key()] {
				body.WriteString(line + "\n")
			}
			tc.Failure = &junitFailure{Message: c.Rejected, Type: "adherence_bar", Body: body.String()}
			tc.SystemOut = ""
			s.Failures++
		}
		s.Cases = append(s.Cases, tc)
	}
	s.Tests = len(s.Cases)
	if r.Run != nil {
		s.Time = secs(float64(r.Run.WallMS))
	} else {
		s.Time = secs(0)
	}
	s.Name = termsafe.Line(s.Name)
	for i := range s.Properties {
		s.Properties[i].Value = termsafe.Line(s.Properties[i].Value)
	}
	for i := range s.Cases {
		c := &s.Cases[i]
		c.Name, c.Classname, c.SystemOut = termsafe.Line(c.Name), termsafe.Line(c.Classname), termsafe.Printable(c.SystemOut)
		if f := c.Failure; f != nil {
			f.Message, f.Body = termsafe.Line(f.Message), termsafe.Printable(f.Body)
		}
	}
	top := junitSuites{Name: "kitsoki eval", Tests: s.Tests, Failures: s.Failures, Time: s.Time, Suite: s}
	var buf bytes.Buffer
	buf.WriteString(xml.Header)
	enc := xml.NewEncoder(&buf)
	enc.Indent("", "  ")
	if err := enc.Encode(top); err != nil {
		return nil, fmt.Errorf("eval --junit: %v", err)
	}
	buf.WriteByte('\n')
	return buf.Bytes(), nil
}

// metricsLine is a candidate's measurements on one line.
func metricsLine(c Candidate) string {
	ci := ""
	if len(c.PassRateCI95) == 2 {
		ci = fmt.Sprintf(" (95%% %.2f–%.2f)", c.PassRateCI95[0], c.PassRateCI95[1])
	}
	flaky := ""
	if len(c.FlakyExamples) > 0 {
		flaky = " flaky=" + strings.Join(c.FlakyExamples, ",")
	}
	return fmt.Sprintf("pass_rate=%.2f%s pass^k=%s schema_valid=%.2f p50=%s p95=%s p99=%s avg_cost=%s calls=%d%s",
		c.ComparatorPassRate, ci, orDash(c.PassKRate, func(v float64) string { return fmt.Sprintf("%.2f", v) }), c.SchemaValidRate,
		msText(c.P50LatencyMS), msText(c.P95LatencyMS), msText(c.P99LatencyMS), usdText(c.AvgCostUSD), c.ExamplesRun, flaky)
}

func msText(p *int64) string {
	return orDash(p, func(v int64) string { return fmt.Sprintf("%dms", v) })
}

func usdText(p *float64) string {
	return orDash(p, func(v float64) string { return fmt.Sprintf("$%.6f", v) })
}

func valueOr0i(p *int64) int64 {
	if p == nil {
		return 0
	}
	return *p
}

func secs(ms float64) string { return fmt.Sprintf("%.3f", ms/1000) }

// capRows is at most maxHTMLRows candidates: a report is a file the
// repository holds.
func capRows(cs []Candidate) []Candidate {
	return cs[:min(len(cs), maxHTMLRows)]
}
