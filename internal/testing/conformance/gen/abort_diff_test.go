package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/pkg/flowtest"
)

// A story upstream aborted compares by the turn its error names: ours must
// fail that turn as a turn (or stop the fixture right before it); a timing
// abort or a log with no such line is not comparable.
func TestAbortDiff(t *testing.T) {
	report := func(turns ...*flowtest.TurnResult) *flowtest.Report {
		return &flowtest.Report{Results: []*flowtest.FlowResult{{File: "flows/f.yaml", Turns: turns}}}
	}
	ok := &flowtest.TurnResult{Passed: true}
	failed := &flowtest.TurnResult{Failures: []string{"the turn failed: boom"}}
	expect := &flowtest.TurnResult{Failures: []string{"expect_state: got a, want b"}}
	const abort = `kitsoki test flows: run flow "flows/f.yaml": turn 2: RunIntent: machine.Turn: boom` + "\n"
	for _, c := range []struct {
		name, log string
		ours      *flowtest.Report
		ok        bool
		differ    string // a substring of the message, "" for none
	}{
		{"same turn fails", abort, report(ok, failed, ok), true, ""},
		{"ours fails an earlier turn as a turn", abort, report(failed, failed), true, "turn 1 failed as a turn here first"},
		{"ours fails an earlier turn's expectation", abort, report(expect, failed), true, ""},
		{"ours passes it", abort, report(ok, ok), true, "upstream aborted"},
		{"ours fails an expectation only", abort, report(expect, expect), true, "upstream aborted"},
		{"ours stopped before it", abort, &flowtest.Report{Results: []*flowtest.FlowResult{{File: "flows/f.yaml", Turns: []*flowtest.TurnResult{ok}}}}, true, ""},
		{"a later document of the file fails it", abort, &flowtest.Report{Results: []*flowtest.FlowResult{
			{File: "flows/f.yaml", Passed: true, Turns: []*flowtest.TurnResult{ok, ok}},
			{File: "flows/f.yaml", Turns: []*flowtest.TurnResult{ok, failed}}}}, true, ""},
		{"no document of the file fails it", abort, &flowtest.Report{Results: []*flowtest.FlowResult{
			{File: "flows/f.yaml", Passed: true, Turns: []*flowtest.TurnResult{ok, ok}},
			{File: "flows/f.yaml", Turns: []*flowtest.TurnResult{ok, expect}}}}, true, "upstream aborted"},
		{"ours ran fewer", abort, report(), true, "0 turns ran here"},
		{"timing", `kitsoki test flows: run flow "flows/f.yaml": turn 2: advance_clock: scheduler WaitIdle: context deadline exceeded`, report(ok, ok), false, ""},
		{"no line", "load app: bad\n", report(ok), false, ""},
	} {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "existing.log"), []byte(c.log), 0o644); err != nil {
			t.Fatal(err)
		}
		msg, got := abortDiff(dir, c.ours)
		if got != c.ok || (c.differ == "") != (msg == "") || !strings.Contains(msg, c.differ) {
			t.Errorf("%s: abortDiff = %q, %v; want ok %v, a message holding %q", c.name, msg, got, c.ok, c.differ)
		}
	}
}
