package trace

import (
	"encoding/json"
	"fmt"
	"runtime"
	"slices"
	"testing"
	"time"
)

// An agent call with no result costs what its start says, not a whole
// Call: the tracker keeps an openCall with its names interned, and Open
// makes each Call as it is yielded. 300,000 starts with no result made
// trace stats peak at 289 MB RSS and trace show at 323 MB (182 and 183
// after). The calls come out as they did.
func TestOpenCallsBounded(t *testing.T) {
	const n = 50_000
	evs := make([]Event, n+2)
	for i := range n {
		evs[i] = Event{Turn: 1, Line: i + 2, Kind: "agent.call.start", CallID: fmt.Sprintf("c%d", i), StatePath: "idle", EpisodeID: "e",
			TS: time.Unix(1, 0), Payload: json.RawMessage(`{"agent":"agent.a","verb":"decide","model":"m-1"}`)}
	}
	evs[n] = Event{Turn: 1, Kind: "x.sub", CallID: "c7"}
	evs[n+1] = Event{Turn: 2, Kind: "agent.call.complete", CallID: "c3", TS: time.Unix(2, 0), Payload: json.RawMessage(`{"response":{}}`)}
	var ct CallTracker
	var done *Call
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for i := range evs {
		if c := ct.Observe(&evs[i]); c != nil {
			done = c
		}
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(evs)
	if per := (int64(after.HeapAlloc) - int64(before.HeapAlloc)) / n; per > 360 {
		t.Errorf("%d open calls hold %d bytes each", n, per)
	}
	if done == nil || done.CallID != "c3" || done.Verb != "decide" || done.DurationMS != 1000 || done.Outcome != OutcomeOK || done.StartLine != 5 {
		t.Fatalf("completed call %+v", done)
	}
	open := slices.Collect(ct.Open())
	if len(open) != n-1 || ct.OpenCount() != n-1 {
		t.Fatalf("%d open calls (count %d), want %d", len(open), ct.OpenCount(), n-1)
	}
	want := Call{CallID: "c7", Turn: 1, StatePath: "idle", Verb: "decide", Agent: "agent.a", Model: "m-1", RequestModel: "m-1",
		EpisodeID: "e", Start: time.Unix(1, 0), Outcome: OutcomeOpen, SubEvents: 1, StartLine: 9}
	if got := *open[6]; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("open call\n got %+v\nwant %+v", got, want)
	}
}
