package eval

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"sync"
	"testing"

	"kitsoki/pkg/agent"
)

// TestRepeatsAreFreshCallsWithinTheBound checks that every repeat reaches
// the backend as a call of its own (no answer is reused: a repeat served
// from a cache would make pass^k meaningless) and that -j bounds the calls
// in flight while the run does reach it.
func TestRepeatsAreFreshCallsWithinTheBound(t *testing.T) {
	const jobs = 3
	v := mustValidate(t, benchStory(t)) // 3 candidates × 50 examples × 5 repeats
	var mu sync.Mutex
	inFlight, most, started := 0, 0, 0
	full := make(chan struct{}) // closed once jobs calls are in flight together
	perExample := map[string]int{}
	ids := map[string]bool{}
	in := agent.AgentFunc(func(ctx context.Context, req *agent.AskRequest) (*agent.AskResponse, error) {
		args, _ := req.With["args"].(map[string]any)
		mu.Lock()
		inFlight++
		started++
		most = max(most, inFlight)
		first := started <= jobs
		if inFlight == jobs && first {
			close(full)
		}
		perExample[fmt.Sprint(args["n"])]++
		ids[req.CallID] = true
		mu.Unlock()
		if first { // the first calls wait until the bound is reached
			select {
			case <-full:
			case <-ctx.Done():
				return nil, ctx.Err()
			}
			// Yielding gives a call past the bound, were one let through,
			// the chance to be counted; a run within the bound passes
			// however the goroutines are scheduled.
			for range 100 {
				runtime.Gosched()
			}
		}
		mu.Lock()
		inFlight--
		mu.Unlock()
		n := 0
		fmt.Sscan(fmt.Sprint(args["n"]), &n)
		sub, _ := json.Marshal(map[string]string{"parity": map[bool]string{true: "even", false: "odd"}[n%2 == 0]})
		return &agent.AskResponse{Submission: sub}, nil
	})
	rep, err := Run(context.Background(), v, RunOptions{Concurrency: jobs, InProcess: map[string]agent.Agent{"agent.a": in, "agent.b": in, "agent.c": in}})
	if err != nil {
		t.Fatal(err)
	}
	if most != jobs || rep.Run.Concurrency != jobs {
		t.Errorf("at most %d calls in flight (report says %d), want exactly -j %d", most, rep.Run.Concurrency, jobs)
	}
	if len(perExample) != 50 || len(ids) != 750 {
		t.Errorf("%d examples called, %d distinct call ids; want 50 and 750", len(perExample), len(ids))
	}
	for ex, n := range perExample {
		if n != 15 { // 3 candidates × 5 repeats
			t.Errorf("example %s reached the backend %d times, want 15", ex, n)
		}
	}
	for _, c := range rep.Candidates {
		if c.ExamplesRun != 250 || f64(c.PassKRate) != 1 {
			t.Errorf("%s: examples_run %d pass^k %v", c.Key(), c.ExamplesRun, f64(c.PassKRate))
		}
	}
}
