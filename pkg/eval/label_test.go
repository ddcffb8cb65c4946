package eval

import (
	"bytes"
	"strings"
	"testing"
)

// TestEveryRenderingLabelsCandidatesAlike: a candidate with an effort and
// no model, and one with a model and no effort, read the same in the
// text, the diff, Markdown, HTML (failure samples and decision too) and
// JUnit: profile[/model][ effort=e], never the key's empty parts
// ("cheap//", "local/m/"). The HTML failure samples named no effort and
// JUnit named keys.
func TestEveryRenderingLabelsCandidatesAlike(t *testing.T) {
	r := &Report{Kind: "agent_eval_report", Call: "pick",
		Candidates: []Candidate{
			{Profile: "cheap", Effort: "low", Pass: true, ComparatorPassRate: 1},
			{Profile: "local", Model: "m", ComparatorPassRate: 0, Rejected: "pass rate 0.00 below 1.00"},
		},
		Decision:       &Decision{Strategy: "cheapest_passing", SelectedProfile: "cheap", SelectedEffort: "low", RejectedSummary: "local/m: pass rate 0.00 below 1.00"},
		FailureSamples: []FailureSample{{Example: "one", Profile: "local", Model: "m", Reason: "wrong"}, {Example: "one", Profile: "cheap", Effort: "low", Reason: "flaky"}},
	}
	var text, diff bytes.Buffer
	WriteReportText(&text, r)
	WriteDiffText(&diff, "pick", "old.json", "new.json", Compare(&Report{}, r))
	md := RenderMarkdown(r)
	html, err := RenderHTML(r)
	if err != nil {
		t.Fatal(err)
	}
	junit, err := RenderJUnit(r)
	if err != nil {
		t.Fatal(err)
	}
	for name, out := range map[string]string{"text": text.String(), "diff": diff.String(), "markdown": string(md), "html": string(html), "junit": string(junit)} {
		if strings.Contains(out, "cheap//") || strings.Contains(out, "cheap/low") || strings.Contains(out, "local/m/") {
			t.Errorf("%s names a candidate by its key:\n%s", name, out)
		}
		if name != "html" && (!strings.Contains(out, "cheap effort=low") || !strings.Contains(out, "local/m")) {
			t.Errorf("%s lacks the labels:\n%s", name, out)
		}
	}
	for _, want := range []string{"<td>one</td><td>cheap effort=low</td>", "<td>one</td><td>local/m</td>", "<strong>cheap effort=low</strong>"} {
		if !strings.Contains(string(html), want) {
			t.Errorf("html lacks %q:\n%s", want, html)
		}
	}
}

// TestDiffSaysTheRunModeChanged: a live report after a cassette one names
// the same alias with its model where the cassette run named none; the
// diff says why it then reads as removed and added.
func TestDiffSaysTheRunModeChanged(t *testing.T) {
	cas := &Report{Candidates: []Candidate{{Profile: "fast", Pass: true}}, Run: &RunInfo{Mode: "cassette"}}
	live := &Report{Candidates: []Candidate{{Profile: "fast", Model: "m", Pass: true}}, Run: &RunInfo{Mode: "live"}}
	d := Compare(cas, live)
	var text bytes.Buffer
	WriteDiffText(&text, "pick", "a.json", "b.json", d)
	if d.ModeChanged != "cassette -> live" || !strings.Contains(text.String(), "warning: run mode cassette -> live: a cassette run's candidates name no model") {
		t.Errorf("mode %q:\n%s", d.ModeChanged, text.String())
	}
	if d := Compare(live, live); d.ModeChanged != "" || Compare(&Report{}, live).ModeChanged != "" {
		t.Errorf("same mode or a report without run: %q", d.ModeChanged)
	}
}
