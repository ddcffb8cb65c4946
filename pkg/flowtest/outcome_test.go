package flowtest

import "testing"

// TestOutcomeOf: a fixture that could not run outweighs a failed one, and
// a skipped fixture fails nothing.
func TestOutcomeOf(t *testing.T) {
	passed := &Result{Flow: &FlowResult{Passed: true}}
	skipped := &Result{Flow: &FlowResult{Skipped: true}}
	failed := &Result{Flow: &FlowResult{}}
	broken := &Result{Fatal: &Failure{Message: "cannot run"}}
	for _, c := range []struct {
		name    string
		results []*Result
		want    Outcome
	}{
		{"none", nil, AllPassed},
		{"passed and skipped", []*Result{passed, skipped}, AllPassed},
		{"failed", []*Result{passed, failed, skipped}, SomeFailed},
		{"broken", []*Result{failed, broken}, SomeBroken},
	} {
		if got := OutcomeOf(c.results); got != c.want {
			t.Errorf("%s: %d, want %d", c.name, got, c.want)
		}
	}
}
