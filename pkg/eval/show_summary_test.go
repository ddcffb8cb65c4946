package eval

import (
	"encoding/json"
	"testing"
)

// TestDatasetSummaryKeys: eval show --json of a dataset keeps the keys, in
// the order and with the nulls it printed as a map: a dataset whose call
// site was not found and that has no report.
func TestDatasetSummaryKeys(t *testing.T) {
	v := &Validation{Dataset: &Dataset{Path: "evals/x.yaml"}}
	b, err := json.Marshal(NewDatasetSummary(v, StatusUnmeasured, nil))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"call":null,"dataset":"evals/x.yaml","errors":null,"latest_report":null,"status":"unmeasured","warnings":null}`
	if string(b) != want {
		t.Fatalf("got  %s\nwant %s", b, want)
	}
	b, _ = json.Marshal(NewDatasetSummary(v, StatusPassing, &Report{Path: "evals/reports/x/latest.json"}))
	if want := `{"call":null,"dataset":"evals/x.yaml","errors":null,"latest_report":"evals/reports/x/latest.json","status":"passing","warnings":null}`; string(b) != want {
		t.Fatalf("got  %s\nwant %s", b, want)
	}
}
