package host

import (
	"fmt"
	"runtime"
	"runtime/metrics"
	"time"

	"go.starlark.net/starlark"
)

// The per-value checks (starlark_budget.go) stop one operation from
// building a huge value, but not a script from keeping many values each
// under them: a loop appending strings of just under 1 MiB, list slices
// (l[:]), d.items() or s.upper() held in a list reached 3 GB in 3,000
// steps and exhausts the machine long before the step budget ends
// (redteam6). Go cannot cap one goroutine's heap, so while a script runs
// a watch samples the process's heap and cancels the script when the
// live heap passes heapLimit: the script fails with an error that goes to
// the story's on_error, and the process lives on.
const (
	// heapLimit is the live heap, in bytes, past which a running script
	// is cancelled.
	heapLimit = 2 << 30
	// heapPoll is how often the watch samples the heap.
	heapPoll = 2 * time.Millisecond
)

// heapObjects is the runtime metric of the bytes held by heap objects,
// live or not yet swept.
const heapObjects = "/memory/classes/heap/objects:bytes"

// watchHeap cancels th when the process's live heap passes limit while
// th runs; the returned stop ends the watch.
func watchHeap(th *starlark.Thread, limit uint64) (stop func()) {
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		sample := []metrics.Sample{{Name: heapObjects}}
		tick := time.NewTicker(heapPoll)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
			}
			if metrics.Read(sample); sample[0].Value.Uint64() <= limit {
				continue
			}
			// garbage counts until it is swept: collect before judging
			runtime.GC()
			if metrics.Read(sample); sample[0].Value.Uint64() <= limit {
				continue
			}
			th.Cancel(fmt.Sprintf("the process held more than %d MiB of live values while the script ran; it was stopped to keep memory bounded (keep fewer or smaller values)", limit>>20))
			return
		}
	}()
	return func() {
		close(done)
		<-finished
	}
}
