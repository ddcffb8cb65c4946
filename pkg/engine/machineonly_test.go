package engine

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"kitsoki/pkg/host"
)

// machineOnly starts testdata/probes/machineonly at r with a counting
// host.run stub, MachineOnly on or off.
func machineOnly(t *testing.T, on bool) (*Session, *atomic.Int64) {
	t.Helper()
	m := compileProbe(t, "machineonly")
	var n atomic.Int64
	reg := host.NewRegistry()
	PrepareHosts(reg)
	reg.Register("host.run", host.HandlerFunc(func(ctx context.Context, c *host.Call) (host.Result, error) {
		n.Add(1)
		return host.Result{Data: map[string]any{"stdout": "ran"}}, nil
	}))
	s, err := Start(t.Context(), m, SessionOptions{Options: Options{Sink: &recSink{}}, StartState: "r", Hosts: reg,
		Clock: NewVirtualClock(time.Unix(0, 0)), MachineOnly: on})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, &n
}

// A stay arc that sets what the room's own on_enter emit waits for routes
// only through the post-bind pass, which a machine-only session never
// runs (story-runtime §1.9); a normal session routes.
func TestMachineOnlyRunsNoPostBindPass(t *testing.T) {
	s, _ := machineOnly(t, true)
	tn := fire(t, s, "arm")
	wantState(t, s, "r")
	if s.World()["flag"] != true {
		t.Fatalf("flag %v, want true", s.World()["flag"])
	}
	if evs := kindsOf(tn.Events, KindEmitIntent); len(evs) != 0 {
		t.Fatalf("emit_intent events %v, want none", evs)
	}

	s2, _ := machineOnly(t, false)
	fire(t, s2, "arm")
	wantState(t, s2, "s")
}

// Host invocations are written (harness.called) but never dispatched,
// foreground or background: no handler runs, no job, no bind.
func TestMachineOnlyDispatchesNoHostCall(t *testing.T) {
	s, n := machineOnly(t, true)
	for _, intent := range []string{"fg", "bg"} {
		tn := fire(t, s, intent)
		if tn.Err != nil || tn.Rejection != nil {
			t.Fatalf("%s: err %v rejection %v", intent, tn.Err, tn.Rejection)
		}
		if len(kindsOf(tn.Events, KindHarnessCalled)) != 1 {
			t.Fatalf("%s: want one harness.called, got %v", intent, tn.Events)
		}
		for _, k := range []string{KindHarnessDispatched, KindHarnessReturned, KindJobSubmitted} {
			if evs := kindsOf(tn.Events, k); len(evs) != 0 {
				t.Fatalf("%s: %s events %v, want none", intent, k, evs)
			}
		}
	}
	if got := n.Load(); got != 0 {
		t.Fatalf("host.run ran %d times, want 0", got)
	}
	if jobs := s.Jobs(); len(jobs) != 0 {
		t.Fatalf("jobs %v, want none", jobs)
	}
	w := s.World()
	if w["out"] != "" || w["last_job_id"] != "" {
		t.Fatalf("out %v last_job_id %v, want both empty", w["out"], w["last_job_id"])
	}

	s2, n2 := machineOnly(t, false)
	fire(t, s2, "fg")
	fire(t, s2, "bg")
	if n2.Load() == 0 || s2.World()["out"] != "ran" || s2.World()["last_job_id"] == "" || len(s2.Jobs()) != 1 {
		t.Fatalf("normal session: ran %d, world %v, jobs %v", n2.Load(), s2.World(), s2.Jobs())
	}
}

// An emit is evaluated where the chain reaches it, as upstream's machine
// does: a set placed after it is not seen.
func TestMachineOnlyEvaluatesEmitsAtWalkTime(t *testing.T) {
	s, _ := machineOnly(t, true)
	fire(t, s, "walk")
	wantState(t, s, "b")
	if s.World()["x"] != "a" {
		t.Fatalf("x %v, want a", s.World()["x"])
	}
}
