package eval

import (
	"encoding/xml"
	"strings"
	"testing"

	"kitsoki/internal/termsafe"
)

// hostileReport has values a repository could put in a report file: table
// pipes, HTML, a link, newlines, control and bidi characters.
func hostileReport() *Report {
	p95, cost := int64(1200), 0.002
	return &Report{Kind: "agent_eval_report", Call: "merge`judge", GeneratedAt: "2026-12-03T10:00:00Z",
		Candidates: []Candidate{
			{Profile: "plug", Model: "good", Effort: "low", Pass: true, ComparatorPassRate: 1, PassRateCI95: []float64{0.84, 1}, P95LatencyMS: &p95, AvgCostUSD: &cost, ExamplesRun: 20},
			{Profile: "evil|col", Model: "<script>alert(1)</script>\n| forged | row |", Pass: false, ComparatorPassRate: 0.5, ExamplesRun: 20, FlakyExamples: []string{"e1", "e_2"},
				Rejected: "pass rate 0.50 below 0.90 [click](https://example.invalid) \x1b[31m\u202e"},
		},
		Decision: &Decision{Strategy: "cheapest_passing", SelectedProfile: "plug", SelectedModel: "good", SelectedEffort: "low"},
		FailureSamples: []FailureSample{
			{Example: "e1", Profile: "evil|col", Model: "<script>alert(1)</script>\n| forged | row |", Reason: "field \"intent\" got accept want refine"},
		},
		Run: &RunInfo{Mode: "live", WallMS: 2500},
	}
}

func TestRenderJUnit(t *testing.T) {
	b, err := RenderJUnit(hostileReport())
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Tests    int `xml:"tests,attr"`
		Failures int `xml:"failures,attr"`
		Suite    struct {
			Name       string `xml:"name,attr"`
			Time       string `xml:"time,attr"`
			Properties []struct {
				Name  string `xml:"name,attr"`
				Value string `xml:"value,attr"`
			} `xml:"properties>property"`
			Cases []struct {
				Name    string `xml:"name,attr"`
				Failure *struct {
					Message string `xml:"message,attr"`
					Body    string `xml:",chardata"`
				} `xml:"failure"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(b, &got); err != nil {
		t.Fatalf("not XML a JUnit reader accepts: %v\n%s", err, b)
	}
	s := got.Suite
	if got.Tests != 2 || got.Failures != 1 || s.Name != "eval merge`judge" || s.Time != "2.500" || len(s.Cases) != 2 {
		t.Fatalf("suite %+v", got)
	}
	if s.Cases[0].Failure != nil || s.Cases[1].Failure == nil || !strings.Contains(s.Cases[1].Failure.Message, "pass rate 0.50 below 0.90") ||
		!strings.Contains(s.Cases[1].Failure.Body, `example e1 repeat 0: field "intent" got accept want refine`) || !strings.Contains(s.Cases[1].Failure.Body, "flaky=e1,e_2") {
		t.Errorf("cases %+v", s.Cases)
	}
	if strings.ContainsRune(string(b), 0x1b) {
		t.Error("an escape character reached the XML")
	}
	if len(s.Properties) != 2 || s.Properties[1].Value != "plug/good effort=low" {
		t.Errorf("properties %+v", s.Properties)
	}
}

func TestRenderMarkdown(t *testing.T) {
	md := string(RenderMarkdown(hostileReport()))
	for _, bad := range []string{"<script", "[click](", "\x1b", "\u202e", "merge`judge"} {
		if strings.Contains(md, bad) {
			t.Errorf("the summary holds %q:\n%s", bad, md)
		}
	}
	var rows []string
	for l := range strings.SplitSeq(md, "\n") {
		if strings.HasPrefix(l, "|") {
			rows = append(rows, l)
		}
	}
	if len(rows) != 4 { // header, rule, two candidates
		t.Fatalf("%d table rows:\n%s", len(rows), md)
	}
	for _, r := range rows {
		// Cells are separated by unescaped pipes only.
		if n := strings.Count(r, "|") - strings.Count(r, `\|`); n != 12 {
			t.Errorf("row has %d cell separators, want 12: %s", n, r)
		}
	}
	for _, want := range []string{"**Selected:** plug/good effort=low (cheapest\\_passing)", "✅ pass", "0.84–1.00", "1200ms", "$0.002000", "evil\\|col", "&lt;script&gt;", "Failure samples (1)", "Flaky (passed on some repeats, failed on others):", ": e1, e\\_2\n"} {
		if !strings.Contains(md, want) {
			t.Errorf("the summary lacks %q:\n%s", want, md)
		}
	}
}

// TestRenderCIBounded checks the JUnit and Markdown renderings of a forged
// report of 100,000 candidates and samples stay small and quick.
func TestRenderCIBounded(t *testing.T) {
	r := &Report{Kind: "agent_eval_report", Call: "c", Candidates: make([]Candidate, 100_000), FailureSamples: make([]FailureSample, 100_000)}
	b, err := RenderJUnit(r)
	if err != nil {
		t.Fatal(err)
	}
	md := RenderMarkdown(r)
	if len(b) > 4<<20 || len(md) > 1<<20 {
		t.Errorf("JUnit %d bytes, Markdown %d bytes", len(b), len(md))
	}
	if !strings.Contains(string(md), "99000 more candidates not shown") || !strings.Contains(string(md), "99990 more in the JSON report") {
		t.Errorf("the summary does not say what it left out")
	}
}

// TestRenderCIInvisibles: a bidi control or an invisible character in a
// report's values (a model's answer quoted in a failure reason, a profile
// name) reaches neither the JUnit nor the Markdown rendering raw, so it
// cannot reorder or hide what a CI's test view or a pull request shows.
func TestRenderCIInvisibles(t *testing.T) {
	r := hostileReport()
	r.Call = "judge\u202egnp.exe"
	r.FailureSamples[0].Reason = "got \u2066accept\u2069 want \u200brefine\U000E0041"
	for i := range r.Candidates {
		r.Candidates[i].Rejected += "\u202e"
	}
	x, err := RenderJUnit(r)
	if err != nil {
		t.Fatal(err)
	}
	for name, b := range map[string][]byte{"junit": x, "markdown": RenderMarkdown(r)} {
		for _, c := range string(b) {
			if c != '\n' && c != '\t' && termsafe.IsControl(c) {
				t.Errorf("%s: raw U+%04X in the rendering", name, c)
			}
		}
	}
}
