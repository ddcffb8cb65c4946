package main

import (
	"strings"
	"testing"

	"kitsoki/pkg/flowtest"
)

// sessionReport is a one-turn report of flows/m4.yaml whose turn sets
// tag to val and shows it in the view.
func sessionReport(val string) *flowtest.Report {
	ev := flowtest.ReportEvent{Kind: "world.update", Payload: []byte(`{"set":{"tag":"run-` + val + `"}}`)}
	return &flowtest.Report{Passed: 1, Results: []*flowtest.FlowResult{{File: "flows/m4.yaml", Passed: true, Turns: []*flowtest.TurnResult{
		{TurnIndex: 0, Passed: true, NewState: "done", View: "T run-" + val, Events: []flowtest.ReportEvent{ev}},
	}}}}
}

// A value built from world.session_id holds upstream's random UUID and
// ours' flow-<fixture>: the two compare (hunt100 g3 032, lintgaps39 m2
// 016 and 053), while another value there still differs.
func TestSessionIDInWorldCompares(t *testing.T) {
	t.Parallel()
	up := sessionReport("e8b3b31a-4e34-4967-b10c-0169efd0ecd4")
	if d := diffReports(up, sessionReport(flowtest.SessionID("flows/m4.yaml"))); d != "" {
		t.Errorf("session ids differ: %s", d)
	}
	for _, other := range []string{"flow-flows_m5.yaml", "x"} {
		if d := diffReports(up, sessionReport(other)); !strings.Contains(d, "run-"+other) {
			t.Errorf("%s matched upstream's session id: %q", other, d)
		}
	}
}

// A ticket comment with a blank author reads back with the header's time
// as its author, upstream's wall clock against our virtual one (hunt100
// g6 068); an author that only holds a time is not masked.
func TestTicketTimeAuthorCompares(t *testing.T) {
	t.Parallel()
	turn := func(author string) *flowtest.TurnResult {
		return &flowtest.TurnResult{Events: []flowtest.ReportEvent{{Kind: "harness.returned",
			Payload: []byte(`{"data":{"comments":[{"author":"` + author + `","created_at":"2026-12-07T06:58:04Z"}]}}`)}}}
	}
	if d := payloadDiff(turn("2026-12-07T06:58:04Z by"), turn("1970-01-01T00:00:02Z by"), ""); d != "" {
		t.Errorf("time authors differ: %s", d)
	}
	if d := payloadDiff(turn("2026-12-07T06:58:04Z"), turn("1970-01-01T00:00:02Z"), ""); d == "" {
		t.Error("an author that is a bare time was masked")
	}
}
