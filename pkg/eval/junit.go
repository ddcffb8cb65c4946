package eval

import (
	"bytes"
	"fmt"
	"strings"

	"kitsoki/internal/junit"
)

// maxCaseSamples is the most failure samples one JUnit case lists.
const maxCaseSamples = 20

// RenderJUnit renders a report as JUnit XML: a candidate is a test case
// that fails when the adherence bar refused it, with its metrics and its
// failure samples in the body. A case's time is its calls' p50 latency ×
// calls (the report keeps no per-call times); the suite's is the run's
// wall time.
func RenderJUnit(r *Report) ([]byte, error) {
	props := &junit.Properties{}
	s := junit.Suite{Name: "eval " + r.Call, Timestamp: r.GeneratedAt, Time: secs(0), Properties: props}
	if d := r.Decision; d != nil {
		props.List = append(props.List, junit.Property{Name: "strategy", Value: d.Strategy})
		if l := d.selectedLabel(); l != "" {
			props.List = append(props.List, junit.Property{Name: "selected", Value: l})
		}
	}
	if r.Run != nil {
		s.Time = secs(float64(r.Run.WallMS))
	}
	// Each failed case lists up to maxCaseSamples of its samples; the
	// samples are grouped once, however many candidates a report has.
	samples := map[string][]string{}
	for _, fs := range r.FailureSamples {
		k := candidateKey(fs.Profile, fs.Model, fs.Effort)
		if len(samples[k]) < maxCaseSamples {
			samples[k] = append(samples[k], fmt.Sprintf("example %s repeat %d: %s", fs.Example, fs.Repeat, fs.Reason))
		}
	}
	for _, c := range capRows(r.Candidates) {
		tc := junit.Case{Name: c.Label(), Classname: "eval." + r.Call,
			Time: secs(float64(valueOr0(c.P50LatencyMS)) * float64(c.ExamplesRun))}
		if c.Pass {
			tc.SystemOut = metricsLine(c)
		} else {
			var body strings.Builder
			body.WriteString(metricsLine(c) + "\n")
			for _, line := range samples[c.Key()] {
				body.WriteString(line + "\n")
			}
			tc.Failure = &junit.Failure{Message: c.Rejected, Type: "adherence_bar", Body: body.String()}
		}
		s.Cases = append(s.Cases, tc)
	}
	var buf bytes.Buffer
	if err := junit.Write(&buf, &junit.Suites{Name: "kitsoki eval", Time: s.Time, Suites: []junit.Suite{s}}); err != nil {
		return nil, fmt.Errorf("eval --junit: %v", err)
	}
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
		c.ComparatorPassRate, ci, rateText(c.PassKRate), c.SchemaValidRate,
		msText(c.P50LatencyMS), msText(c.P95LatencyMS), msText(c.P99LatencyMS), usdText(c.AvgCostUSD), c.ExamplesRun, flaky)
}

func msText(p *int64) string {
	return orDash(p, func(v int64) string { return fmt.Sprintf("%dms", v) })
}

// rateText is a rate with two decimals, or "–" when unmeasured.
func rateText(p *float64) string {
	return orDash(p, func(v float64) string { return fmt.Sprintf("%.2f", v) })
}

func usdText(p *float64) string {
	return orDash(p, func(v float64) string { return fmt.Sprintf("$%.6f", v) })
}

func secs(ms float64) string { return junit.Secs(ms / 1000) }

// capRows is at most maxHTMLRows rows: a report is a file the
// repository holds.
func capRows[T any](rows []T) []T {
	return rows[:min(len(rows), maxHTMLRows)]
}
