package eval

import (
	"strings"
	"testing"
)

// TestRenderHTMLBounded: eval show --html renders a report a repository
// committed; one of 100,000 empty candidates and failure samples renders
// at most maxHTMLRows of each, with a line counting the rest, rather than
// a page many times the report's size.
func TestRenderHTMLBounded(t *testing.T) {
	r := &Report{Kind: "agent_eval_report", Call: "c", Candidates: make([]Candidate, 100_000), FailureSamples: make([]FailureSample, 100_000)}
	b, err := RenderHTML(r)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) > 4<<20 {
		t.Errorf("the page is %d bytes", len(b))
	}
	for _, want := range []string{"99000 more candidates not shown", "99000 more failure samples not shown"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("the page does not say %q", want)
		}
	}
	small := &Report{Kind: "agent_eval_report", Call: "c", Candidates: make([]Candidate, 3), FailureSamples: make([]FailureSample, 2)}
	if b, _ := RenderHTML(small); strings.Contains(string(b), "not shown") || strings.Count(string(b), "<circle") != 3 {
		t.Errorf("a small report is cut:\n%s", b)
	}
}
