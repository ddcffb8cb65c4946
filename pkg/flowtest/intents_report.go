package flowtest

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"

	"kitsoki/internal/termsafe"
)

// IntentReport is the result of [RunIntents], in upstream's `test intents
// --json` shape.
type IntentReport struct {
	Fixtures         []*IntentFixtureReport
	TotalPassed      int
	TotalFailed      int
	TotalInputs      int
	TotalRuns        int
	DurationMillis   int64
	CostUSD          float64
	HarnessType      string `json:",omitempty"`
	HarnessModel     string `json:",omitempty"`
	AgentBackend     string `json:",omitempty"`
	ProfileName      string `json:",omitempty"`
	Regressions      []string
	RecordingEmitted bool
	// Stopped says why runs were left unmade (--max-cost), "" when none.
	Stopped string `json:"-"`
}

// IntentFixtureReport is one fixture's pass rate.
type IntentFixtureReport struct {
	ID          string
	State       string
	MinPassRate float64
	Inputs      []*IntentInputReport
	TotalRuns   int
	TotalPassed int
	PassRate    float64
	Passed      bool

	fx *IntentFixture
}

// IntentInputReport is one phrasing's pass rate.
type IntentInputReport struct {
	Input             string
	Runs              int
	Passed            int
	PassRate          float64
	BelowMin          bool
	DurationMillis    int64
	CostUSD           float64
	FirstUsage        map[string]any `json:",omitempty"`
	FirstError        string         `json:",omitempty"`
	FirstActualIntent string         `json:",omitempty"`
	FirstActualSlots  map[string]any `json:",omitempty"`
}

func rate(passed, runs int) float64 {
	if runs == 0 {
		return 1
	}
	return float64(passed) / float64(runs)
}

// total sums the inputs and judges the fixture.
func (f *IntentFixtureReport) total() {
	f.TotalRuns, f.TotalPassed = 0, 0
	for _, in := range f.Inputs {
		in.PassRate = rate(in.Passed, in.Runs)
		// with no run counted an input is never low, a fixture passes
		in.BelowMin = in.Runs > 0 && in.PassRate < f.MinPassRate
		f.TotalRuns += in.Runs
		f.TotalPassed += in.Passed
	}
	f.PassRate = rate(f.TotalPassed, f.TotalRuns)
	f.Passed = f.TotalRuns == 0 || f.PassRate >= f.MinPassRate
}

// Failed reports whether a fixture failed, a regression was found or runs
// were stopped.
func (r *IntentReport) Failed() bool {
	return r.TotalFailed > 0 || len(r.Regressions) > 0 || r.Stopped != ""
}

// MarshalIntentReport is the --json bytes.
func MarshalIntentReport(r *IntentReport) ([]byte, error) {
	return json.MarshalIndent(r, "", "  ")
}

// WriteIntentsText writes upstream's text report: a line per fixture, a
// line per input, the summary, regressions, then PASS or FAIL. Names and
// inputs from the fixtures are escaped (termsafe.Line), one line each.
func WriteIntentsText(w io.Writer, r *IntentReport) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, f := range r.Fixtures {
		verdict := "PASS"
		if !f.Passed {
			verdict = "FAIL"
		}
		fmt.Fprintf(tw, "%-6s\tstate:%-20s\t%-30s\t%d/%d (%.1f%%)\t(threshold %.0f%%)\n",
			verdict, termsafe.Line(f.State), termsafe.Line(f.ID), f.TotalPassed, f.TotalRuns, f.PassRate*100, f.MinPassRate*100)
		for _, in := range f.Inputs {
			mark := "ok"
			if in.BelowMin {
				mark = "LOW"
			}
			fmt.Fprintf(tw, "\t  %-6s  %-40s\t%d/%d (%.0f%%)\n", mark, `"`+termsafe.Line(in.Input)+`"`, in.Passed, in.Runs, in.PassRate*100)
		}
	}
	_ = tw.Flush()
	fmt.Fprintf(w, "\nSummary: %d/%d fixtures pass\n", r.TotalPassed, len(r.Fixtures))
	if r.Stopped != "" {
		fmt.Fprintf(w, "STOPPED: %s\n", termsafe.Line(r.Stopped))
	}
	if len(r.Regressions) > 0 {
		fmt.Fprintln(w, "REGRESSIONS:")
		for _, g := range r.Regressions {
			fmt.Fprintf(w, "  %s\n", termsafe.Line(g))
		}
	}
	if r.Failed() {
		fmt.Fprintln(w, "FAIL")
	} else {
		fmt.Fprintln(w, "PASS")
	}
}

// WriteIntentsPlan is `test intents --dry-run`: what a run would do, in
// upstream's words. runs, when not 0, overrides each fixture's own; a live
// run's cost is capped at maxCost.
func WriteIntentsPlan(w io.Writer, suites []*IntentSuite, runs int, live bool, maxCost float64) {
	fixtures, inputs, calls := 0, 0, 0
	for _, s := range suites {
		for _, fx := range s.Fixtures {
			fixtures++
			inputs += len(fx.Inputs)
			calls += cmp.Or(runs, fx.Runs) * len(fx.Inputs)
		}
	}
	note := "est. cost not calculated for static harness"
	if live {
		note = fmt.Sprintf("cost capped by --max-cost %.2f", maxCost)
	}
	fmt.Fprintf(w, "Dry run: %d fixtures, %d inputs, %d total calls (%s)\n", fixtures, inputs, calls, note)
	fmt.Fprintf(w, "\nSummary: 0/0 fixtures pass\nPASS\n")
}
