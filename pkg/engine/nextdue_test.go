package engine

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"kitsoki/pkg/host"
)

// scanDueJob is nextDueJob as it was before the store kept its landed
// prefix: every job looked at, from the first.
func scanDueJob(jobs []*job, start, end time.Time, answered bool) *job {
	for _, j := range jobs {
		if j.applied || !j.settled || j.info.Status == JobAwaiting || (j.answer != nil && !answered) {
			continue
		}
		due := j.due
		if j.answer != nil && due.Before(start) {
			due = start
		}
		if !due.After(end) {
			return j
		}
	}
	return nil
}

// nextDueJob lands jobs in the order the full scan did, over random job
// sets (landed, unsettled, awaiting, answered, due before, in and after
// the window), each landing marked applied as jobStep does.
func TestNextDueJobMatchesFullScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 1))
	t0 := time.Unix(0, 0)
	for round := range 2000 {
		n := rng.IntN(40)

		r := &runner{jobs: &jobStore{byID: map[string]*job{}}}
		for i := range n {
			j := &job{info: JobInfo{Seq: i + 1, Status: JobRunning}, settled: rng.IntN(5) > 0, applied: rng.IntN(3) == 0, due: t0.Add(time.Duration(rng.IntN(10)) * time.Second)}
			if rng.IntN(6) == 0 {
				j.info.Status = JobAwaiting
			}
			if rng.IntN(6) == 0 {
				j.answer = "yes"
			}
			r.jobs.jobs = append(r.jobs.jobs, j)
		}
		start := t0.Add(time.Duration(rng.IntN(6)) * time.Second)
		end := start.Add(time.Duration(rng.IntN(6)) * time.Second)
		answered := rng.IntN(2) == 0
		for step := 0; ; step++ {
			want := scanDueJob(r.jobs.jobs, start, end, answered)
			got := r.nextDueJob(start, end, answered)
			if got != want {
				t.Fatalf("round %d step %d: nextDueJob gave %v, the full scan %v", round, step, seqOf(got), seqOf(want))
			}
			if got == nil {
				break
			}
			got.applied = true
			if rng.IntN(8) == 0 { // a job submitted while others land
				r.jobs.jobs = append(r.jobs.jobs, &job{info: JobInfo{Seq: len(r.jobs.jobs) + 1, Status: JobRunning}, settled: true, due: end})
			}
		}
	}
}

func seqOf(j *job) int {
	if j == nil {
		return 0
	}
	return j.info.Seq
}

// A chain of landed jobs is passed once: each completion's search for the
// next starts at the first job still to land, not at the first submitted.
func TestNextDueJobStartsPastLanded(t *testing.T) {
	m := compileSource(t, "app.yaml", fmt.Sprintf(jobLoopStory, 300), CompileOptions{LateHandlers: true})
	reg := host.NewRegistry()
	PrepareHosts(reg)
	reg.Register("host.job", host.HandlerFunc(func(context.Context, *host.Call) (host.Result, error) {
		return host.Result{}, nil
	}))
	s, err := Start(t.Context(), m, SessionOptions{StartState: "a", Hosts: reg, Clock: NewVirtualClock(time.Unix(0, 0))})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	fire(t, s, "go")
	advance(t, s, time.Second)
	if got := len(s.Jobs()); got != 299 {
		t.Fatalf("%d jobs ran, want 299", got)
	}
	if s.r.nextDueJob(time.Unix(0, 0), time.Unix(9, 0), true) != nil || s.r.jobs.landed != 299 {
		t.Errorf("after 299 landings the search starts at job %d", s.r.jobs.landed)
	}
}

// A completion that arrives between a waiter's drain and its pending()
// has closed a channel the waiter never held: pending must wake it at
// once, or kitsoki run waits for a change that never comes (seen as a
// 10-minute hang of TestRunJobChainBounded under load).
func TestPendingWakesForAReadyCompletion(t *testing.T) {
	s := &jobStore{byID: map[string]*job{}, notify: make(chan struct{})}
	j := &job{settled: true}
	s.jobs = append(s.jobs, j)
	s.mu.Lock()
	s.ready = append(s.ready, j)
	s.signalLocked() // the drain's channel, closed before pending is asked
	s.mu.Unlock()
	n, ch := s.pending()
	if n != 1 {
		t.Fatalf("pending = %d, want 1", n)
	}
	select {
	case <-ch:
	default:
		t.Fatal("pending returned a channel no change will close while a completion waits in ready")
	}
	// with nothing in ready it is the store's own channel, still open
	s.ready = nil
	if _, ch := s.pending(); ch != s.notify {
		t.Fatal("with nothing ready, pending did not return the store's channel")
	}
}
