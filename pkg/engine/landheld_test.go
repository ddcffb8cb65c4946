package engine

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"kitsoki/pkg/host"
)

// chainStory: each job's on_complete enters the other state, whose
// on_enter appends 1 KiB to world.t and starts the next job, 200 times;
// every completion's world.update keeps its copy of t, about 20 MB in all.
var chainStory = `app: {id: chain}
hosts: [host.job]
intents:
  go: {}
root: a
world:
  t: {type: string, default: ""}
  n: {type: int, default: 0}
states:
  a:
    on: {go: [{target: b}]}
  b:
    on_enter:
      - set: {t: "{{ world.t + '` + kib + `' }}"}
      - increment: {n: 1}
      - background: true
        invoke: host.job
        when: world.n < 200
        on_complete: [{target: c}]
  c:
    on_enter:
      - set: {t: "{{ world.t + '` + kib + `' }}"}
      - increment: {n: 1}
      - background: true
        invoke: host.job
        when: world.n < 200
        on_complete: [{target: b}]
`

var kib = strings.Repeat("0123456789abcdef", 64)

// instantJobHosts is the prepared hosts with a host.job that answers at
// once, the job every chain story here starts.
func instantJobHosts() *host.Registry {
	reg := host.NewRegistry()
	PrepareHosts(reg)
	reg.Register("host.job", host.HandlerFunc(func(context.Context, *host.Call) (host.Result, error) {
		return host.Result{Data: map[string]any{"v": "K"}}, nil
	}))
	return reg
}

// chainSession starts chainStory on a virtual clock with the cap lowered
// to 1 MiB and fires go (the first job, due at once, is submitted).
func chainSession(t *testing.T) *Session {
	t.Helper()
	m := compileSource(t, "app.yaml", chainStory, CompileOptions{LateHandlers: true})
	reg := instantJobHosts()
	s, err := Start(t.Context(), m, SessionOptions{StartState: "a", Hosts: reg, Clock: NewVirtualClock(time.Unix(0, 0))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	s.r.heldCap = 1 << 20
	fire(t, s, "go")
	return s
}

// The completions of one advance are one Turn: a chain of jobs whose
// on_complete grows a world value kept every copy (a generated story with
// a trail drove kitsoki test out of memory). Past the cap the advance
// fails, naming the effect that starts the job and the fix.
func TestLandingJobsKeepBounded(t *testing.T) {
	s := chainSession(t)
	_, err := s.Advance(t.Context(), time.Second)
	if err == nil {
		t.Fatal("200 completions keeping 20 MB passed a 1 MiB cap")
	}
	for _, want := range []string{"app.yaml:", "the background jobs landing in one advance_clock kept more than 1 MiB of events", "host.job job", "start fewer jobs from on_complete"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
	// before a user turn one job lands (conformance jobs-land-one-per-gap):
	// the chain moves one step per turn and never piles up there
	s = chainSession(t)
	for i := int64(2); i <= 4; i++ {
		if _, err := s.Fire(t.Context(), Input{Intent: "go"}); err != nil {
			t.Fatalf("turn %d: %v", i, err)
		}
		if n := s.World()["n"]; n != i {
			t.Fatalf("after %d user turns the chain is at n=%v, want %d: one landing per turn", i, n, i)
		}
	}
}

// So many completions land at most, however little they keep.
func TestLandingJobsCountBounded(t *testing.T) {
	s := chainSession(t)
	s.r.heldCap, s.r.landCap = maxLandHeld, 50
	_, err := s.Advance(t.Context(), time.Second)
	if err == nil || !strings.Contains(err.Error(), "app.yaml:") || !strings.Contains(err.Error(), "more than 50 background jobs landed in one advance_clock") {
		t.Fatalf("200 completions past a cap of 50: %v", err)
	}
}

// TestLandHeldCapIsTheDocumented: completions landing together keep at
// most maxLandHeld and are at most maxLandJobs, the 256 MiB and 10,000
// docs/compat/hardening.md states, and a session starts with them.
func TestLandHeldCapIsTheDocumented(t *testing.T) {
	if maxLandHeld != 256<<20 || maxLandJobs != 10000 {
		t.Fatalf("maxLandHeld is %d bytes, maxLandJobs %d; docs/compat/hardening.md says 256 MiB and 10,000", maxLandHeld, maxLandJobs)
	}
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "compat", "hardening.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(strings.Fields(string(doc)), " "), "The job completions landing in one advance keep at most 256 MiB of events") || !strings.Contains(string(doc), "at most 10,000 completions") {
		t.Fatal("docs/compat/hardening.md no longer states the bounds of job completions landing together")
	}
	if r := newRunner(compileSource(t, "app.yaml", chainStory, CompileOptions{LateHandlers: true}), SessionOptions{}); r.heldCap != maxLandHeld || r.landCap != maxLandJobs {
		t.Errorf("a session's caps are %d bytes and %d completions, want maxLandHeld and maxLandJobs", r.heldCap, r.landCap)
	}
}

// AdvanceClock (the flow rig's advance) keeps none of the landing's events,
// which Advance merges into one Turn, yet counts them against the same
// bound: the chain stops where Advance stops it.
func TestAdvanceClockKeepsNoEvents(t *testing.T) {
	s := chainSession(t)
	s.r.heldCap = maxLandHeld
	vc := s.r.clock.(*VirtualClock)
	out, err := s.r.advance(t.Context(), vc, time.Second, true)
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Events) != 0 || out.held < 200<<10 {
		t.Errorf("a counted advance of 200 completions kept %d events and counted %d bytes", len(out.Events), out.held)
	}
	if got := len(s.Jobs()); got != 199 {
		t.Errorf("%d jobs landed, want 199", got)
	}
	s = chainSession(t)
	err = s.AdvanceClock(t.Context(), time.Second)
	if err == nil || !strings.Contains(err.Error(), "the background jobs landing in one advance_clock kept more than 1 MiB of events") {
		t.Errorf("AdvanceClock past a 1 MiB cap: %v", err)
	}
}
