package eval

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"kitsoki/pkg/agent"
)

// TestCostPerHourPricesLocalCalls checks matrix.cost_per_hour_usd: the
// calls of a profile whose backend reports no cost_usd (a local model) cost
// latency × the hourly price, so cheapest_passing can weigh a local model
// against a metered API; a backend's own cost_usd wins over the price.
func TestCostPerHourPricesLocalCalls(t *testing.T) {
	path := benchStory(t)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// a: local, $2/h, no cost_usd; b: metered, cost_usd 0.0001 each;
	// c: priced at $2/h but reports cost_usd 0.0003, which wins.
	ds := strings.Replace(string(b), "repeat: 5}", "repeat: 1, cost_per_hour_usd: {a: 2, c: 2}}", 1)
	ds = strings.Replace(ds, "fastest_passing", "cheapest_passing", 1)
	if err := os.WriteFile(path, []byte(ds), 0o600); err != nil {
		t.Fatal(err)
	}
	v := mustValidate(t, path)
	answer := func(cost any) agent.Agent {
		return agent.AgentFunc(func(ctx context.Context, req *agent.AskRequest) (*agent.AskResponse, error) {
			args, _ := req.With["args"].(map[string]any)
			n := 0
			fmt.Sscan(fmt.Sprint(args["n"]), &n)
			sub, _ := json.Marshal(map[string]string{"parity": map[bool]string{true: "even", false: "odd"}[n%2 == 0]})
			r := &agent.AskResponse{Submission: sub}
			if cost != nil {
				r.Meta = map[string]any{"cost_usd": cost, "usage": map[string]any{"input_tokens": 120, "output_tokens": 7}}
			}
			return r, nil
		})
	}
	// Every dispatch takes 900ms of the run's clock, 1 job at a time.
	var mu sync.Mutex
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	ticks := 0
	clock := func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		ticks++
		if ticks%2 == 0 {
			now = now.Add(900 * time.Millisecond)
		}
		return now
	}
	rep, err := Run(context.Background(), v, RunOptions{Concurrency: 1, Clock: clock, InProcess: map[string]agent.Agent{
		"agent.a": answer(nil), "agent.b": answer(0.0001), "agent.c": answer(0.0003),
	}})
	if err != nil {
		t.Fatal(err)
	}
	a, bb, c := rep.Candidates[0], rep.Candidates[1], rep.Candidates[2]
	// 900ms at $2/h is $0.0005.
	if f64(a.AvgCostUSD) != 0.0005 || f64(a.CostPerHourUSD) != 2 || i64(a.P50LatencyMS) != 900 {
		t.Errorf("a: avg cost %v per hour %v p50 %d", f64(a.AvgCostUSD), f64(a.CostPerHourUSD), i64(a.P50LatencyMS))
	}
	if a.AvgInputTokens != nil || f64(bb.AvgInputTokens) != 120 || f64(bb.AvgOutputTokens) != 7 {
		t.Errorf("tokens: a %v, b %v/%v", a.AvgInputTokens, f64(bb.AvgInputTokens), f64(bb.AvgOutputTokens))
	}
	if f64(bb.AvgCostUSD) != 0.0001 || bb.CostPerHourUSD != nil {
		t.Errorf("b: avg cost %v per hour %v", f64(bb.AvgCostUSD), f64(bb.CostPerHourUSD))
	}
	if f64(c.AvgCostUSD) != 0.0003 {
		t.Errorf("c: avg cost %v, want the backend's own 0.0003", f64(c.AvgCostUSD))
	}
	if d := rep.Decision; d.SelectedProfile != "b" || !strings.Contains(d.RejectedSummary, "a: passed but costlier") {
		t.Errorf("decision %+v", d)
	}
}
