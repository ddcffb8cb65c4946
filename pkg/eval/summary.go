package eval

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"kitsoki/internal/quantile"
)

// CallRecord is one measured call: the unit shard reports carry and
// summarize folds into candidates.
type CallRecord struct {
	Candidate int      `json:"candidate"` // index into the matrix's candidates
	Example   string   `json:"example"`
	Repeat    int      `json:"repeat"`
	LatencyMS int64    `json:"latency_ms"`
	CostUSD   *float64 `json:"cost_usd,omitempty"`
	// Tokens is meta.usage's input and output tokens, when reported.
	Tokens      *[2]int64 `json:"tokens,omitempty"`
	SchemaValid bool      `json:"schema_valid"`
	Conformant  bool      `json:"conformant"`
	Pass        bool      `json:"pass"`
	Retries     int       `json:"retries,omitempty"`
	Fallback    bool      `json:"fallback,omitempty"`
	Reason      string    `json:"reason,omitempty"`
	Actual      any       `json:"actual,omitempty"` // kept only for failures
}

// SummaryConfig is what summarize needs from the dataset.
type SummaryConfig struct {
	Bar               *AdherenceBar
	Repeat            int
	Strategy          string // "" = cheapest_passing
	FallbackProfile   string
	Expect            map[string]map[string]any // example name -> expect
	MaxFailureSamples int                       // 0 = 50
}

// summarize computes every candidate's metrics, bar and pick and the
// failure samples; the output depends only on the records' content.
func summarize(specs []CandidateSpec, recs []CallRecord, cfg SummaryConfig) ([]Candidate, *Decision, []FailureSample) {
	recs = append([]CallRecord(nil), recs...)
	slices.SortStableFunc(recs, func(a, b CallRecord) int {
		return cmp.Or(cmp.Compare(a.Candidate, b.Candidate), cmp.Compare(a.Example, b.Example), cmp.Compare(a.Repeat, b.Repeat))
	})
	by := make([][]CallRecord, len(specs))
	for _, r := range recs {
		if r.Candidate >= 0 && r.Candidate < len(specs) {
			by[r.Candidate] = append(by[r.Candidate], r)
		}
	}
	bar := cmp.Or(cfg.Bar, &AdherenceBar{MinPassRate: 1})
	cands := make([]Candidate, len(specs))
	for i, sp := range specs {
		cands[i] = measure(sp, by[i], bar, cfg.Repeat)
	}
	dec := decide(cands, cfg)
	return cands, dec, failureSamples(specs, recs, cfg)
}

func measure(sp CandidateSpec, rs []CallRecord, bar *AdherenceBar, repeat int) Candidate {
	c := Candidate{Profile: sp.Profile, Backend: sp.Backend, Model: sp.Model, Effort: sp.Effort, ExamplesRun: len(rs), Repeat: repeat, CostPerHourUSD: sp.CostPerHourUSD}
	n := float64(len(rs))
	if len(rs) == 0 {
		c.Rejected = "no calls ran"
		return c
	}
	rate := func(ok func(CallRecord) bool) float64 {
		k := 0
		for _, r := range rs {
			if ok(r) {
				k++
			}
		}
		return round6(float64(k) / n)
	}
	c.SchemaValidRate = rate(func(r CallRecord) bool { return r.SchemaValid })
	c.ComparatorPassRate = rate(func(r CallRecord) bool { return r.Pass })
	c.ContractConformanceRate = rate(func(r CallRecord) bool { return r.Conformant })
	rr, fr := rate(func(r CallRecord) bool { return r.Retries > 0 }), rate(func(r CallRecord) bool { return r.Fallback })
	c.RetryRate, c.FallbackRate = &rr, &fr
	var lat []int64
	var cost []float64
	costAvg := 0.0                                                                      // a running mean: a sum of large costs could overflow to +Inf, which JSON cannot hold
	var tokIn, tokOut, tokN float64                                                     // float: records of a forged shard cannot overflow it
	examples, failed, passed := map[string]bool{}, map[string]bool{}, map[string]bool{} // for pass^k
	for _, r := range rs {
		lat = append(lat, r.LatencyMS)
		if r.CostUSD != nil {
			cost = append(cost, *r.CostUSD)
			costAvg += (*r.CostUSD - costAvg) / float64(len(cost))
		}
		if r.Tokens != nil {
			tokIn, tokOut, tokN = tokIn+float64(r.Tokens[0]), tokOut+float64(r.Tokens[1]), tokN+1
		}
		examples[r.Example] = true
		if !r.Pass {
			failed[r.Example] = true
		} else {
			passed[r.Example] = true
		}
	}
	for ex := range failed {
		if passed[ex] {
			c.FlakyExamples = append(c.FlakyExamples, ex)
		}
	}
	slices.Sort(c.FlakyExamples)
	c.FlakyExamples = c.FlakyExamples[:min(len(c.FlakyExamples), maxFlakyNames)]
	slices.Sort(lat)
	p50, p90, p95, p99 := quantile.NearestRank(lat, 0.50), quantile.NearestRank(lat, 0.90), quantile.NearestRank(lat, 0.95), quantile.NearestRank(lat, 0.99)
	c.P50LatencyMS, c.P90LatencyMS, c.P95LatencyMS, c.P99LatencyMS = &p50, &p90, &p95, &p99
	c.PassRateCI95 = wilson95(c.ComparatorPassRate, len(rs))
	if len(cost) > 0 {
		avg := round9(costAvg)
		slices.Sort(cost)
		p := round9(quantile.NearestRank(cost, 0.95))
		c.AvgCostUSD, c.P95CostUSD = &avg, &p
	}
	if tokN > 0 {
		in, out := round6(tokIn/tokN), round6(tokOut/tokN)
		c.AvgInputTokens, c.AvgOutputTokens = &in, &out
	}
	pk := round6(float64(len(examples)-len(failed)) / float64(len(examples)))
	c.PassKRate = &pk
	var why []string
	if c.ComparatorPassRate < bar.MinPassRate {
		why = append(why, fmt.Sprintf("pass rate %.2f below %.2f", c.ComparatorPassRate, bar.MinPassRate))
	}
	if bar.MinPassKRate != nil && pk < *bar.MinPassKRate {
		why = append(why, fmt.Sprintf("pass^k %.2f below %.2f", pk, *bar.MinPassKRate))
	}
	if bar.MaxP95LatencyMS != nil && p95 > *bar.MaxP95LatencyMS {
		why = append(why, fmt.Sprintf("p95 latency %dms above %dms", p95, *bar.MaxP95LatencyMS))
	}
	if bar.MaxAvgCostUSD != nil && c.AvgCostUSD != nil && *c.AvgCostUSD > *bar.MaxAvgCostUSD {
		why = append(why, fmt.Sprintf("avg cost $%.6f above $%.6f", *c.AvgCostUSD, *bar.MaxAvgCostUSD))
	}
	c.Pass = len(why) == 0
	c.Rejected = strings.Join(why, ", ")
	return c
}

// maxFlakyNames is the most flaky example names a candidate lists.
const maxFlakyNames = 50

// wilson95 is the Wilson score interval at 95% of a rate p measured
// over n calls, rounded to 6 places; it stays inside [0, 1] and is honest
// for small n and for rates of 0 or 1, where the normal interval is not.
func wilson95(p float64, n int) []float64 {
	const z = 1.959964
	fn := float64(n)
	den := 1 + z*z/fn
	mid := (p + z*z/(2*fn)) / den
	half := z * math.Sqrt(p*(1-p)/fn+z*z/(4*fn*fn)) / den
	return []float64{round6(max(mid-half, 0)), round6(min(mid+half, 1))}
}

func round6(x float64) float64 { return math.Round(x*1e6) / 1e6 }

// round9 rounds to 9 places; a value too large for that to matter is kept
// as is, since scaling it could overflow to +Inf.
func round9(x float64) float64 {
	if math.Abs(x) > 1e9 {
		return x
	}
	return math.Round(x*1e9) / 1e9
}

func decide(cands []Candidate, cfg SummaryConfig) *Decision {
	strategy := cmp.Or(cfg.Strategy, "cheapest_passing")
	d := &Decision{Strategy: strategy, FallbackProfile: cfg.FallbackProfile}
	cost := func(c Candidate) float64 { return valueOr0(c.AvgCostUSD) }
	lat := func(c Candidate) int64 {
		if c.P95LatencyMS == nil {
			return math.MaxInt64
		}
		return *c.P95LatencyMS
	}
	// cheapest_passing orders by cost, then latency; fastest_passing the
	// other way round; a tie keeps the earlier candidate.
	order, passedBut := func(a, b Candidate) int {
		return cmp.Or(cmp.Compare(cost(a), cost(b)), cmp.Compare(lat(a), lat(b)))
	}, "passed but costlier"
	if strategy == "fastest_passing" {
		order, passedBut = func(a, b Candidate) int {
			return cmp.Or(cmp.Compare(lat(a), lat(b)), cmp.Compare(cost(a), cost(b)))
		}, "passed but slower"
	}
	best := -1
	for i, c := range cands {
		if c.Pass && (best < 0 || order(c, cands[best]) < 0) {
			best = i
		}
	}
	var rej []string
	for i, c := range cands {
		switch {
		case i == best:
		case !c.Pass:
			rej = append(rej, c.Label()+": "+c.Rejected)
		default:
			rej = append(rej, c.Label()+": "+passedBut)
		}
	}
	d.RejectedSummary = strings.Join(rej, "; ")
	if best >= 0 {
		b := cands[best]
		d.SelectedProfile, d.SelectedModel, d.SelectedEffort = b.Profile, b.Model, b.Effort
	}
	return d
}

func failureSamples(specs []CandidateSpec, recs []CallRecord, cfg SummaryConfig) []FailureSample {
	limit := cfg.MaxFailureSamples
	if limit <= 0 {
		limit = 50
	}
	var out []FailureSample
	seen := map[string]bool{}
	for _, r := range recs {
		if r.Pass || r.Candidate < 0 || r.Candidate >= len(specs) {
			continue
		}
		key := fmt.Sprintf("%d\x00%s", r.Candidate, r.Example)
		if seen[key] {
			continue
		}
		seen[key] = true
		sp := specs[r.Candidate]
		out = append(out, FailureSample{Example: r.Example, Profile: sp.Profile, Model: sp.Model, Effort: sp.Effort,
			Repeat: r.Repeat, Reason: r.Reason, Actual: r.Actual, Expect: cfg.Expect[r.Example]})
		if len(out) >= limit {
			break
		}
	}
	return out
}
