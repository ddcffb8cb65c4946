package trace

import (
	"cmp"
	"container/heap"
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
// Each event costs the same however many calls are open: no event
// searches them all.
type hostTracker struct {
	open map[string]*hostQueue
	// heads orders the namespaces with open calls by their oldest call,
	// for a harness.error that names no namespace.
	heads hostHeads
	// agents are the host.agent.* calls in start order, those returned
	// dropped lazily; the last open one is the call an agent.call.start
	// belongs to.
	agents     []*hostPending
	openAgents int
}

// hostQueue is one namespace's open calls, oldest first, and those of
// them still waiting for the other half of a harness.called /
// harness.dispatched pair (returned ones are skipped lazily).
type hostQueue struct {
	calls                      []*hostPending
	needCalled, needDispatched []*hostPending
	heap                       int // index in hostTracker.heads, -1 when it has no calls
}

type hostPending struct {
	HostCall
	called, done bool
}

// observe feeds one harness.* event; it returns a call that the event
// completes, or nil.
func (t *hostTracker) observe(ev *Event) *HostCall {
	switch ev.Kind {
	case "harness.called", "harness.dispatched":
	case "harness.returned", "harness.error":
	default:
		return nil
	}
	ns, errText := hostFields(ev.Payload)
	if t.open == nil {
		t.open = map[string]*hostQueue{}
	}
	q := t.open[ns]
	switch ev.Kind {
	case "harness.called", "harness.dispatched":
		called := ev.Kind == "harness.called"
		if q == nil {
			q = &hostQueue{heap: -1}
			t.open[ns] = q
		}
		if called { // the other half of a dispatched+called pair
			if p := popHalf(&q.needCalled); p != nil {
				p.called = true
				return nil
			}
		} else if popHalf(&q.needDispatched) != nil {
			return nil
		}
		p := &hostPending{HostCall: HostCall{Namespace: ns, Turn: ev.Turn, StatePath: ev.StatePath, Start: ev.TS, StartLine: ev.Line},
			called: called}
		q.calls = append(q.calls, p)
		if called {
			q.needDispatched = append(q.needDispatched, p)
		} else {
			q.needCalled = append(q.needCalled, p)
		}
		if len(q.calls) == 1 {
			heap.Push(&t.heads, q)
		}
		if strings.HasPrefix(ns, "host.agent.") {
			t.agents = append(t.agents, p)
			t.openAgents++
		}
		return nil
	case "harness.error":
		if ns == "" && len(t.heads) > 0 { // no namespace: the oldest open call
			q = t.heads[0]
		}
		if q == nil || len(q.calls) == 0 { // an error with no call: a call of its own
			return &HostCall{Namespace: cmp.Or(ns, "(no namespace)"), Turn: ev.Turn, StatePath: ev.StatePath, Start: ev.TS, End: ev.TS, StartLine: ev.Line, Error: cmp.Or(errText, "host error"), Returned: true}
		}
		q.calls[0].Error = cmp.Or(errText, "host error")
		q.calls[0].End = ev.TS
		return nil
	}
	// harness.returned
	if q == nil || len(q.calls) == 0 {
		return &HostCall{Namespace: ns, Turn: ev.Turn, StatePath: ev.StatePath, Start: ev.TS, End: ev.TS, Error: errText, Returned: true, StartLine: ev.Line}
	}
	p := q.calls[0]
	q.calls[0] = nil
	q.calls = q.calls[1:]
	p.done = true
	if len(q.calls) == 0 {
		heap.Remove(&t.heads, q.heap)
		delete(t.open, ns) // its half lists hold only returned calls
	} else {
		heap.Fix(&t.heads, q.heap)
	}
	if strings.HasPrefix(ns, "host.agent.") {
		t.openAgents--
		if len(t.agents) > 64 && len(t.agents) > 2*t.openAgents {
			t.agents = slices.DeleteFunc(t.agents, func(a *hostPending) bool { return a.done })
		}
	}
	p.End, p.Returned, p.Error = ev.TS, true, cmp.Or(errText, p.Error)
	return &p.HostCall
}

// popHalf takes the oldest call of list still open, dropping the returned
// ones before it; nil when there is none.
func popHalf(list *[]*hostPending) *hostPending {
	for len(*list) > 0 {
		p := (*list)[0]
		(*list)[0] = nil
		*list = (*list)[1:]
		if !p.done {
			return p
		}
	}
	return nil
}

// openAgentCall returns the most recently opened host.agent.* call still
// open (the host call an agent.call.start belongs to), or nil.
func (t *hostTracker) openAgentCall() *HostCall {
	for i, a := range slices.Backward(t.agents) {
		if !a.done {
			t.agents = t.agents[:i+1] // the returned ones after it are of no more use
			return &a.HostCall
		}
	}
	t.agents = t.agents[:0]
	return nil
}

// hostHeads is a min-heap of the namespaces with open calls, by their
// oldest call's start (then its trace line).
type hostHeads []*hostQueue

func (h hostHeads) Len() int { return len(h) }
func (h hostHeads) Less(i, j int) bool {
	a, b := h[i].calls[0], h[j].calls[0]
	return cmp.Or(a.Start.Compare(b.Start), cmp.Compare(a.StartLine, b.StartLine)) < 0
}
func (h hostHeads) Swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h[i].heap, h[j].heap = i, j
}
func (h *hostHeads) Push(x any) {
	q := x.(*hostQueue)
	q.heap = len(*h)
	*h = append(*h, q)
}
func (h *hostHeads) Pop() any {
	old := *h
	q := old[len(old)-1]
	old[len(old)-1] = nil
	*h = old[:len(old)-1]
	q.heap = -1
	return q
}

// pending returns the calls with no harness.returned, oldest first (in
// trace order when they started at the same time).
func (t *hostTracker) pending() []*HostCall {
	var out []*HostCall
	for _, q := range t.open {
		for _, p := range q.calls {
			out = append(out, &p.HostCall)
		}
	}
	slices.SortStableFunc(out, func(a, b *HostCall) int {
		return cmp.Or(a.Start.Compare(b.Start), cmp.Compare(a.StartLine, b.StartLine))
	})
	return out
}
