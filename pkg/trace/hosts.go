package trace

import (
	"cmp"
	"slices"
	"strings"
	"time"
)

// HostCall is one host call reconstructed from harness.called /
// harness.dispatched (either or both), harness.error and harness.returned.
type HostCall struct {
	Namespace string
	Turn      int
	StatePath string
	Start     time.Time
	End       time.Time
	Error     string // from harness.returned or a harness.error
	Returned  bool   // false when the trace ends before harness.returned
	StartLine int    // trace line of the event that opened the call
}

// hostTracker pairs host events FIFO per namespace, counting a failed call
// once whether the engine wrote harness.error, harness.returned or both.
type hostTracker struct {
	open map[string][]*hostPending
}

type hostPending struct {
	HostCall
	called, dispatched bool
}

// observe feeds one harness.* event; it returns a call that the event
// completes, or nil.
func (t *hostTracker) observe(ev *Event) *HostCall {
	switch ev.Kind {
	case "harness.called", "harness.dispatched", "harness.returned", "harness.error":
	default:
		return nil
	}
	ns, errText := hostFields(ev.Payload)
	if t.open == nil {
		t.open = map[string][]*hostPending{}
	}
	q := t.open[ns]
	switch ev.Kind {
	case "harness.called", "harness.dispatched":
		called := ev.Kind == "harness.called"
		for _, p := range q { // the other half of a dispatched+called pair
			if called && p.dispatched && !p.called {
				p.called = true
				return nil
			}
			if !called && p.called && !p.dispatched {
				p.dispatched = true
				return nil
			}
		}
		t.open[ns] = append(q, &hostPending{HostCall: HostCall{Namespace: ns, Turn: ev.Turn, StatePath: ev.StatePath, Start: ev.TS, StartLine: ev.Line},
			called: called, dispatched: !called})
		return nil
	case "harness.error":
		if ns == "" { // no namespace: the oldest open call
			for k, kq := range t.open {
				if len(kq) > 0 && (ns == "" || kq[0].Start.Before(t.open[ns][0].Start)) {
					ns = k
				}
			}
			q = t.open[ns]
		}
		if len(q) == 0 { // an error with no call: a call of its own
			return &HostCall{Namespace: cmp.Or(ns, "(no namespace)"), Turn: ev.Turn, StatePath: ev.StatePath, Start: ev.TS, End: ev.TS, StartLine: ev.Line, Error: cmp.Or(errText, "host error"), Returned: true}
		}
		q[0].Error = cmp.Or(errText, "host error")
		q[0].End = ev.TS
		return nil
	}
	// harness.returned
	if len(q) == 0 {
		return &HostCall{Namespace: ns, Turn: ev.Turn, StatePath: ev.StatePath, Start: ev.TS, End: ev.TS, Error: errText, Returned: true, StartLine: ev.Line}
	}
	p := q[0]
	t.open[ns] = q[1:]
	p.End, p.Returned, p.Error = ev.TS, true, cmp.Or(errText, p.Error)
	return &p.HostCall
}

// openAgentCall returns the most recently opened host.agent.* call still
// open (the host call an agent.call.start belongs to), or nil.
func (t *hostTracker) openAgentCall() *HostCall {
	var best *HostCall
	for ns, q := range t.open {
		if !strings.HasPrefix(ns, "host.agent.") {
			continue
		}
		for _, p := range q {
			if best == nil || p.StartLine > best.StartLine {
				best = &p.HostCall
			}
		}
	}
	return best
}

// pending returns the calls with no harness.returned, oldest first (in
// trace order when they started at the same time).
func (t *hostTracker) pending() []*HostCall {
	var out []*HostCall
	for _, q := range t.open {
		for _, p := range q {
			out = append(out, &p.HostCall)
		}
	}
	slices.SortStableFunc(out, func(a, b *HostCall) int {
		return cmp.Or(a.Start.Compare(b.Start), cmp.Compare(a.StartLine, b.StartLine))
	})
	return out
}
