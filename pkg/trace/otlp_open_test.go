package trace

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// heapAtFirstWrite is an export's writer that records the live heap when
// the export first writes: a trace of calls that never finish writes
// nothing until its end, so this is what the export holds of them.
type heapAtFirstWrite struct{ heap uint64 }

func (w *heapAtFirstWrite) Write(b []byte) (int, error) {
	if w.heap == 0 {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		w.heap = ms.HeapAlloc
	}
	return len(b), nil
}

// TestExportOpenCallsHeld: an agent call with no result is held until the
// end of the export as what its span needs: not its with: map, nor its
// input (only a cassette writes it), each of which was held whole. Held
// as it should be, a call costs about 80 bytes here (the export's fixed
// part spread over n calls included); holding its input alone brings it
// to 300, so the bound of 200 tells them apart at a few thousand calls.
func TestExportOpenCallsHeld(t *testing.T) {
	const n = 5_000
	var b strings.Builder
	b.WriteString(`{"kind":"session.header","schema_version":1}` + "\n")
	input := strings.Repeat("i", 200)
	for i := range n {
		fmt.Fprintf(&b, `{"turn":1,"seq":%d,"kind":"agent.call.start","call_id":"c%d","payload":{"agent":"a","verb":"v","provider":"p","with":{"temperature":0.5,"max_tokens":100,"style":"terse"},"input":{"text":%q}}}`+"\n", i, i, input)
	}
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base := ms.HeapAlloc
	trace := strings.NewReader(b.String())
	w := &heapAtFirstWrite{}
	if err := ExportOTLP(trace, "t.jsonl", w, OTLPOptions{}); err != nil {
		t.Fatal(err)
	}
	per := (int64(w.heap) - int64(base)) / n
	t.Logf("%d open calls held as %d bytes each (heap %d, base %d)", n, per, w.heap, base)
	if per > 200 {
		t.Fatalf("%d open calls held as %d bytes each, over 200", n, per)
	}
}
