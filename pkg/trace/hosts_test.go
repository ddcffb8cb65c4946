package trace

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"
)

func TestHostTrackerConventions(t *testing.T) {
	at := time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)
	ev := func(ms int, kind, payload string) *Event {
		return &Event{Kind: kind, TS: at.Add(time.Duration(ms) * time.Millisecond), Payload: json.RawMessage(payload)}
	}
	var ht hostTracker
	var done []*HostCall
	for _, e := range []*Event{
		// kitsoki run: called, error, returned-with-error = one failed call
		ev(0, "harness.called", `{"namespace":"host.run"}`),
		ev(5, "harness.error", `{"phase":"invoke","namespace":"host.run","error":"exit 2"}`),
		ev(6, "harness.returned", `{"namespace":"host.run","error":"exit 2"}`),
		// upstream: dispatched then called (same call), then returned
		ev(10, "harness.dispatched", `{"namespace":"host.x"}`),
		ev(11, "harness.called", `{"namespace":"host.x"}`),
		ev(12, "harness.dispatched", `{"namespace":"host.x"}`),
		ev(13, "harness.called", `{"namespace":"host.x"}`),
		ev(20, "harness.returned", `{"namespace":"host.x","data":{"ok":true}}`),
		ev(30, "harness.returned", `{"namespace":"host.x","data":{"ok":true}}`),
		// a call that never returns
		ev(40, "harness.called", `{"namespace":"host.slow"}`),
		ev(41, "machine.say", `{"text":"not a host event"}`),
	} {
		if hc := ht.observe(e); hc != nil {
			done = append(done, hc)
		}
	}
	if len(done) != 3 {
		t.Fatalf("%d calls: %+v", len(done), done)
	}
	if c := done[0]; c.Namespace != "host.run" || c.Error != "exit 2" || c.End.Sub(c.Start) != 6*time.Millisecond {
		t.Fatalf("%+v", c)
	}
	if c := done[1]; c.Namespace != "host.x" || c.Error != "" || c.End.Sub(c.Start) != 10*time.Millisecond {
		t.Fatalf("%+v", c)
	}
	if c := done[2]; c.End.Sub(c.Start) != 18*time.Millisecond {
		t.Fatalf("second host.x call paired wrongly: %+v", c)
	}
	if p := ht.pending(); len(p) != 1 || p[0].Namespace != "host.slow" || p[0].Returned {
		t.Fatalf("pending %+v", p)
	}
}

// Many host calls left open: each event costs the same however many are
// open (100,000 open calls made trace stats search them all on every
// event: 14 s, and a namespace each with errors naming none over 100 s),
// and the pairing is as before: a half pairs with the oldest open call
// waiting for it, an error naming no namespace goes to the oldest open
// call, and an agent call belongs to the last host.agent.* call open.
func TestHostTrackerManyOpenCalls(t *testing.T) {
	at := time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)
	line := 0
	ev := func(ms int, kind, payload string) *Event {
		line++
		return &Event{Kind: kind, TS: at.Add(time.Duration(ms) * time.Millisecond), Payload: json.RawMessage(payload), Line: line}
	}
	var ht hostTracker
	const n = 5_000
	for i := range n {
		ht.observe(ev(i, "harness.dispatched", `{"namespace":"host.agent.ask"}`))
		ht.observe(ev(i, "harness.called", fmt.Sprintf(`{"namespace":"host.n%d"}`, i)))
	}
	// a called pairs with the oldest dispatched still waiting
	ht.observe(ev(n, "harness.called", `{"namespace":"host.agent.ask"}`))
	if q := ht.open["host.agent.ask"]; len(q.calls) != n || !q.calls[0].called || q.calls[1].called || len(q.needCalled) != n-1 {
		t.Fatalf("pairing: %d calls, first called %v, second %v, %d waiting", len(q.calls), q.calls[0].called, q.calls[1].called, len(q.needCalled))
	}
	// an error naming no namespace: the oldest open call (host.agent.ask's first, at 0 ms, line 1)
	ht.observe(ev(n, "harness.error", `{"error":"boom"}`))
	if c := ht.open["host.agent.ask"].calls[0]; c.Error != "boom" {
		t.Fatalf("the error went elsewhere: %+v", c.HostCall)
	}
	for i := range n - 1 {
		hc := ht.observe(ev(n+1, "harness.returned", `{"namespace":"host.agent.ask"}`))
		if hc == nil || hc.StartLine != 2*i+1 {
			t.Fatalf("returned %d paired with %+v", i, hc)
		}
		if len(ht.agents) > 2*ht.openAgents+64 {
			t.Fatalf("%d agent calls kept for %d open", len(ht.agents), ht.openAgents)
		}
	}
	if hc := ht.openAgentCall(); hc == nil || hc.StartLine != 2*(n-1)+1 {
		t.Fatalf("open agent call %+v, want the last one", hc)
	}
	ht.observe(ev(n+2, "harness.returned", `{"namespace":"host.agent.ask"}`))
	if hc := ht.openAgentCall(); hc != nil || ht.open["host.agent.ask"] != nil {
		t.Fatalf("open agent call %+v after every one returned", hc)
	}
	// the oldest open call is now host.n0's: an error naming nothing goes there
	ht.observe(ev(n+3, "harness.error", `{"error":"late"}`))
	if c := ht.open["host.n0"].calls[0]; c.Error != "late" {
		t.Fatalf("the error went elsewhere: %+v", c.HostCall)
	}
	if p := ht.pending(); len(p) != n || p[0].Namespace != "host.n0" || p[n-1].Namespace != fmt.Sprintf("host.n%d", n-1) {
		t.Fatalf("%d pending, first %+v", len(p), p[0])
	}
}
