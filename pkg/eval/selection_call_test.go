package eval

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckSelectionsEvidenceOfAnotherCall: a pin's evidence must measure
// the pinned call. A repository could point selection.evidence at a
// passing report of another call (or one naming no call), and eval check
// accepted it as evidence for this one whenever that report carried no
// hashes to go stale.
func TestCheckSelectionsEvidenceOfAnotherCall(t *testing.T) {
	dsPath := writeFixture(t, fixture{Profiles: "plug", Models: "    plug: [good, sloppy]", Selection: selectionBlock})
	dir := filepath.Dir(filepath.Dir(dsPath))
	v := mustValidate(t, dsPath)
	latest := filepath.Join(reportsDir(v.Dataset), "latest.json")
	good := Candidate{Profile: "plug", Model: "good", Effort: "low", Pass: true}
	for _, call := range []string{"other_call", ""} {
		if err := writeReport(latest, &Report{Kind: "agent_eval_report", Call: call, Candidates: []Candidate{good}}); err != nil {
			t.Fatal(err)
		}
		ds := CheckSelections(loadStory(t, dir))
		if len(ds) != 1 || !strings.Contains(ds[0].Message, `measures call "`+call+`", not "merge_judge"`) {
			t.Errorf("evidence of call %q: %v", call, ds)
		}
	}
	if err := writeReport(latest, &Report{Kind: "agent_eval_report", Call: "merge_judge", Candidates: []Candidate{good}}); err != nil {
		t.Fatal(err)
	}
	if ds := CheckSelections(loadStory(t, dir)); len(ds) != 0 {
		t.Errorf("evidence of the pinned call: %v", ds)
	}
}
