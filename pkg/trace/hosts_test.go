package trace

import (
	"encoding/json"
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
