package eval

import (
	"slices"
	"sort"
	"strings"
	"testing"

	"kitsoki/internal/jsonvalue"
)

func TestCompare(t *testing.T) {
	exp := map[string]any{"intent": "accept", "confidence": 0.9, "tags": []any{"a", "b"}, "nested": map[string]any{"k": 1}}
	full := map[string]any{"intent": "accept", "confidence": 0.9, "tags": []any{"a", "b"}, "nested": map[string]any{"k": int64(1)}}
	extra := map[string]any{"intent": "accept", "confidence": 0.9, "tags": []any{"a", "b", "c"}, "nested": map[string]any{"k": 1.0, "z": true}, "more": "x"}
	for _, c := range []struct {
		cmp    Comparator
		expect map[string]any
		actual any
		pass   bool
		reason string
	}{
		{Comparator{Kind: "exact"}, exp, full, true, ""},
		{Comparator{Kind: "exact"}, exp, extra, false, "actual does not exactly match expected"},
		{Comparator{Kind: "field_subset"}, exp, extra, true, ""},
		{Comparator{Kind: "field_subset"}, exp, map[string]any{"intent": "accept", "confidence": 0.9, "tags": []any{"a"}, "nested": map[string]any{"k": 1}}, false, "actual does not contain expected field subset"},
		{Comparator{Kind: "field_subset"}, exp, "text", false, "actual does not contain expected field subset"},
		{Comparator{Kind: "artifact_diff"}, exp, map[string]any{}, false, "artifact does not match expected accepted subset"},
		{Comparator{Kind: "enum", Field: "intent"}, exp, map[string]any{"intent": "refine"}, false, `field "intent" got refine want accept`},
		{Comparator{Kind: "enum", Field: "intent"}, exp, map[string]any{}, false, `field "intent" got <nil> want accept`},
		{Comparator{Kind: "enum"}, map[string]any{"verdict": 1}, map[string]any{"verdict": 1.0}, true, ""},
		{Comparator{Kind: "enum"}, map[string]any{"reason": "x", "verdict": "pass"}, map[string]any{"verdict": "pass"}, true, ""},
		{Comparator{Kind: "enum"}, map[string]any{"a": 1, "b": 2}, map[string]any{}, false, "enum comparator needs a field or single expected key"},
		{Comparator{Kind: "judge"}, exp, full, false, "judge comparator is live-gated and has no deterministic offline result"},
		{Comparator{Kind: "vibes"}, exp, full, false, `unsupported comparator "vibes"`},
	} {
		pass, reason := compareAnswer(c.cmp, c.expect, c.actual)
		if pass != c.pass || reason != c.reason {
			t.Errorf("%+v on %v: got %v %q, want %v %q", c.cmp, c.actual, pass, reason, c.pass, c.reason)
		}
	}
	if got := diffFields(exp, map[string]any{"intent": "accept", "tags": []any{"a"}}); got != "confidence,nested,tags" {
		t.Errorf("diffFields %q", got)
	}
	if got := enumField(Comparator{}, map[string]any{"status": "x", "other": 1}); got != "status" {
		t.Errorf("enumField %q", got)
	}
}

func TestSummarize(t *testing.T) {
	specs := []CandidateSpec{{Profile: "a", Model: "cheap"}, {Profile: "b", Model: "fast"}, {Profile: "c", Model: "never"}}
	cost := func(x float64) *float64 { return &x }
	var recs []CallRecord
	// a: 20 passing calls of 100..2000ms, cost 0.001; b: 20 passing calls
	// of 10ms, cost 0.01; c: none passes.
	for i := range 20 {
		ex := string(rune('a' + i%4))
		recs = append(recs,
			CallRecord{Candidate: 0, Example: ex, Repeat: i / 4, LatencyMS: int64(100 * (i + 1)), CostUSD: cost(0.001), SchemaValid: true, Conformant: true, Pass: true},
			CallRecord{Candidate: 1, Example: ex, Repeat: i / 4, LatencyMS: 10, CostUSD: cost(0.01), SchemaValid: true, Conformant: true, Pass: true},
			CallRecord{Candidate: 2, Example: ex, Repeat: i / 4, LatencyMS: 5, SchemaValid: false, Conformant: false, Pass: false, Reason: "agent: plugin_crash: x"},
		)
	}
	cands, dec, samples := summarize(specs, recs, SummaryConfig{Repeat: 5, Bar: &AdherenceBar{MinPassRate: 0.95}})
	a := cands[0]
	if i64(a.P50LatencyMS) != 1000 || i64(a.P95LatencyMS) != 1900 || !a.Pass || f64(a.PassKRate) != 1 {
		t.Errorf("a: %+v p50 %d p95 %d", a, i64(a.P50LatencyMS), i64(a.P95LatencyMS))
	}
	if i64(a.P90LatencyMS) != 1800 || i64(a.P99LatencyMS) != 2000 || i64(cands[1].P99LatencyMS) != 10 {
		t.Errorf("a: p90 %d p99 %d; b: p99 %d", i64(a.P90LatencyMS), i64(a.P99LatencyMS), i64(cands[1].P99LatencyMS))
	}
	// 20 of 20 passed: the rate is 1, but 20 calls cannot show it is
	// above 0.84; 0 of 20 cannot show it is below 0.16.
	if ci := a.PassRateCI95; len(ci) != 2 || ci[0] != 0.838875 || ci[1] != 1 {
		t.Errorf("a: pass_rate_ci95 %v", ci)
	}
	if ci := cands[2].PassRateCI95; len(ci) != 2 || ci[0] != 0 || ci[1] != 0.161125 {
		t.Errorf("c: pass_rate_ci95 %v", ci)
	}
	if dec.SelectedProfile != "a" || dec.Strategy != "cheapest_passing" || !strings.Contains(dec.RejectedSummary, "b/fast: passed but costlier") || !strings.Contains(dec.RejectedSummary, "c/never: pass rate 0.00 below 0.95") {
		t.Errorf("cheapest decision %+v", dec)
	}
	_, dec, _ = summarize(specs, recs, SummaryConfig{Repeat: 5, Strategy: "fastest_passing", Bar: &AdherenceBar{MinPassRate: 0.95}})
	if dec.SelectedProfile != "b" {
		t.Errorf("fastest decision %+v", dec)
	}
	if cands[2].AvgCostUSD != nil || cands[2].ContractConformanceRate != 0 {
		t.Errorf("c %+v", cands[2])
	}
	// One sample per failing candidate × example.
	if len(samples) != 4 {
		t.Errorf("samples %d: %+v", len(samples), samples)
	}
	// A pass^k bar refuses a candidate whose average passes but whose
	// repeats disagree: x passes 3 of 4 calls, but only 1 of 2 examples
	// on both repeats.
	flaky := []CallRecord{{Candidate: 0, Example: "x", Pass: true}, {Candidate: 0, Example: "x", Repeat: 1, Pass: true},
		{Candidate: 0, Example: "y", Pass: true}, {Candidate: 0, Example: "y", Repeat: 1}}
	k := 0.9
	cands, _, _ = summarize(specs[:1], flaky, SummaryConfig{Repeat: 2, Bar: &AdherenceBar{MinPassRate: 0.7, MinPassKRate: &k}})
	if cands[0].Pass || cands[0].Rejected != "pass^k 0.50 below 0.90" || !slices.Equal(cands[0].FlakyExamples, []string{"y"}) {
		t.Errorf("pass^k bar: %+v", cands[0])
	}
	cands, _, _ = summarize(specs[:1], flaky, SummaryConfig{Repeat: 2, Bar: &AdherenceBar{MinPassRate: 0.7}})
	if !cands[0].Pass {
		t.Errorf("without a pass^k bar: %+v", cands[0])
	}
	// Costs whose sum would overflow still average to a number a report
	// can hold.
	big := 1e308
	cands, _, _ = summarize(specs[:1], []CallRecord{{Candidate: 0, Example: "x", CostUSD: &big, Pass: true}, {Candidate: 0, Example: "y", CostUSD: &big, Pass: true}}, SummaryConfig{Repeat: 1})
	if f64(cands[0].AvgCostUSD) != big {
		t.Errorf("avg of two 1e308 costs: %v", f64(cands[0].AvgCostUSD))
	}
	if _, err := (&Report{Kind: "agent_eval_report", Candidates: cands}).Marshal(); err != nil {
		t.Errorf("the report cannot be written: %v", err)
	}
	// No bar means every call must pass.
	cands, _, _ = summarize(specs[:1], []CallRecord{{Candidate: 0, Example: "x", Pass: true}, {Candidate: 0, Example: "x", Repeat: 1}}, SummaryConfig{Repeat: 2})
	if cands[0].Pass || f64(cands[0].PassKRate) != 0 || cands[0].ComparatorPassRate != 0.5 {
		t.Errorf("no bar: %+v", cands[0])
	}
	// Order of records does not matter.
	rev := append([]CallRecord(nil), recs...)
	for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
		rev[i], rev[j] = rev[j], rev[i]
	}
	c1, d1, s1 := summarize(specs, recs, SummaryConfig{Repeat: 5})
	c2, d2, s2 := summarize(specs, rev, SummaryConfig{Repeat: 5})
	if jsonString(c1) != jsonString(c2) || jsonString(d1) != jsonString(d2) || jsonString(s1) != jsonString(s2) {
		t.Error("summarize depends on record order")
	}
}

// TestWilson95 checks the interval against the textbook values for 5 of
// 10 (0.2366–0.7634) and 1 of 1, where a normal interval would be [1, 1].
func TestWilson95(t *testing.T) {
	if ci := wilson95(0.5, 10); ci[0] != 0.236593 || ci[1] != 0.763407 {
		t.Errorf("5/10: %v", ci)
	}
	if ci := wilson95(1, 1); ci[0] != 0.206549 || ci[1] != 1 {
		t.Errorf("1/1: %v", ci)
	}
}

// diffFields lists the expect keys missing from actual or not subset-equal,
// sorted and comma-joined.
func diffFields(expect map[string]any, actual any) string {
	am, _ := jsonvalue.RoundTrip(actual).(map[string]any)
	var out []string
	for k, v := range expect {
		av, ok := am[k]
		if !ok || !subset(jsonvalue.RoundTrip(v), av) {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return strings.Join(out, ",")
}
