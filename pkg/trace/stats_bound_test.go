package trace

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// A trace naming a new event kind, agent, error kind or handler on every
// line costs what a real one does: the tables keep at most maxStatsNames
// names in all, each clipped to maxStatsNameBytes and copied out of its
// line, the rest counted under otherNames. Before, every name was kept
// whole, so kitsoki trace stats' memory grew with the trace.
func TestStatsNamesBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"kind":"session.header","schema_version":1}` + "\n")
	const n = maxStatsNames + 100
	pad := strings.Repeat("k", maxStatsNameBytes+44) // every kind clipped
	for i := range n {
		fmt.Fprintf(&b, `{"turn":1,"seq":%d,"kind":"x.%d.%s","call_id":"c%d","payload":{"agent":"a%d"}}`+"\n", 2*i, i, pad, i, i)
		fmt.Fprintf(&b, `{"turn":1,"seq":%d,"kind":"agent.call.error","call_id":"c%d","payload":{"agent":"a%d","error":{"kind":"k%d","message":"m"}}}`+"\n", 2*i+1, i, i, i)
	}
	st := NewStats()
	if err := st.AddTrace(strings.NewReader(b.String()), "t.jsonl"); err != nil {
		t.Fatal(err)
	}
	st.Finish()
	kept := len(st.EventsByKind) + len(st.ByAgent) + len(st.ErrorsByKind) + len(st.HostByHandler)
	for _, a := range st.ByAgent {
		kept += len(a.ErrorsByKind)
	}
	if kept > maxStatsNames+8 {
		t.Fatalf("the tables keep %d names, want at most about %d", kept, maxStatsNames)
	}
	total := 0
	for k, c := range st.EventsByKind {
		if len(k) > maxStatsNameBytes {
			t.Fatalf("a kind of %d bytes kept whole", len(k))
		}
		total += c
	}
	if total != st.Events || st.Events != 2*n || st.EventsByKind[otherNames] == 0 {
		t.Fatalf("events %d counted %d in the table (%d under %s), want %d", st.Events, total, st.EventsByKind[otherNames], otherNames, 2*n)
	}
	if st.CallErrors != n || st.ByAgent[otherNames] == nil || st.ByAgent[otherNames].Errors == 0 {
		t.Fatalf("call errors %d, other agents %+v", st.CallErrors, st.ByAgent[otherNames])
	}
	if _, err := json.Marshal(st); err != nil {
		t.Fatal(err)
	}
}
