package engine

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"
)

// runChain starts src on the wall clock with an instant host.job, the
// input go, and the bounds lowered to landCap completions and heldCap
// bytes, and runs it as kitsoki run does.
func runChain(t *testing.T, src string, landCap, heldCap int, wait func(context.Context, time.Duration) error) error {
	t.Helper()
	m := compileSource(t, "app.yaml", src, CompileOptions{LateHandlers: true})
	reg := instantJobHosts()
	s, err := Start(t.Context(), m, SessionOptions{Options: Options{Inputs: []Input{{Intent: "go"}}, Wait: wait}, StartState: "a", Hosts: reg})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.r.landCap, s.r.heldCap = landCap, heldCap
	consumed := 0
	return s.runInputs(t.Context(), &consumed)
}

// Under kitsoki run a job whose on_complete starts the next one ran until
// --timeout: it now stops past the completions one advance may land,
// naming the background: effect and the fix.
func TestRunJobChainBounded(t *testing.T) {
	err := runChain(t, fmt.Sprintf(jobLoopStory, 1000), 50, maxLandHeld, nil)
	if err == nil {
		t.Fatal("a chain of 999 jobs landed past a bound of 50")
	}
	for _, want := range []string{"app.yaml:", "more than 50 background jobs landed since the last input", "host.job job", "start fewer jobs from on_complete"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
	// a chain that ends within the bound runs to its end
	if err := runChain(t, fmt.Sprintf(jobLoopStory, 40), 50, maxLandHeld, nil); err != nil {
		t.Errorf("a chain of 39 jobs under a bound of 50: %v", err)
	}
}

// What the chain's turns write (to the trace) is bounded too: each
// completion of chainStory writes a world value 1 KiB longer.
func TestRunJobChainHeldBounded(t *testing.T) {
	err := runChain(t, chainStory, maxLandJobs, 1<<20, nil)
	if err == nil || !strings.Contains(err.Error(), "app.yaml:") || !strings.Contains(err.Error(), "landing since the last input kept more than 1 MiB of events") {
		t.Fatalf("200 completions writing 20 MB past a 1 MiB bound: %v", err)
	}
}

// timeoutLoop: b's timeout leads to c, whose timeout leads back.
const timeoutLoop = `app: {id: loop}
intents:
  go: {}
root: a
world:
  n: {type: int, default: 0}
states:
  a:
    on: {go: [{target: b}]}
  b:
    on_enter: [{increment: {n: 1}}]
    timeout: {after: 1ns, target: c}
  c:
    on_enter: [{increment: {n: 1}}]
    timeout: {after: 1ns, target: b}
`

// Two states whose timeouts lead to each other ran under kitsoki run
// until --timeout; they stop past the bound, naming the timeout and the
// fix. The wait gives up after 500 timeouts, so that without the bound
// the run ends interrupted instead.
func TestRunTimeoutLoopBounded(t *testing.T) {
	waits := 0
	err := runChain(t, timeoutLoop, 50, maxLandHeld, func(ctx context.Context, d time.Duration) error {
		if waits++; waits > 500 {
			return context.Canceled
		}
		return nil
	})
	if err == nil {
		t.Fatal("a timeout loop ran without end")
	}
	for _, want := range []string{"app.yaml:", "more than 50 timeouts fired since the last input", `the timeout of state "`, "--timeout"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
}

// Each input starts the count again.
func TestInputChainCountsFromTheLastInput(t *testing.T) {
	m := compileSource(t, "app.yaml", timeoutLoop, CompileOptions{})
	s, err := Start(t.Context(), m, SessionOptions{StartState: "a"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.r.chain = inputChain{jobs: 7, timeouts: 8, held: 9}
	fire(t, s, "go")
	if s.r.chain != (inputChain{}) {
		t.Errorf("after an input the count is %+v", s.r.chain)
	}
}
