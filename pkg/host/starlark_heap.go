package host

import (
	"fmt"
	"runtime"
	"runtime/metrics"
	"time"

	"go.starlark.net/starlark"
)

// The per-value checks (starlark_budget.go) do not stop a script from
// keeping many values each under them, and Go cannot cap one goroutine's
// heap: while a script runs, a watch samples the process's heap and
// cancels the script (its error goes to on_error) past heapLimit.
const (
	heapLimit = 2 << 30              // live heap bytes past which a script is cancelled
	heapPoll  = 2 * time.Millisecond // how often the watch samples the heap
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
