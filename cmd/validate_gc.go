package cmd

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
)

// A validate run is short and, over a tree of stories, allocates much and
// keeps little: it collects at 9x the live heap (GOGC=800) under a
// validateGCLimit memory limit. A story that keeps more than
// validateGCSpan (10^5 states) goes back to the default 2x with no limit,
// so its peak stays near twice what it holds and the collector does not
// run without pause, as a fixed limit under the live heap made it do.
const (
	validateGCLimit = 72 << 20
	validateGCSpan  = 48 << 20
)

// tuneValidateGC sets the collector for a validate run unless GOGC says
// otherwise; a GOMEMLIMIT is left as it is set.
func tuneValidateGC() {
	if _, set := os.LookupEnv("GOGC"); set {
		return
	}
	debug.SetGCPercent(800)
	_, envLimit := os.LookupEnv("GOMEMLIMIT")
	ownLimit := !envLimit
	if ownLimit {
		debug.SetMemoryLimit(validateGCLimit)
	}
	afterEachGC(func(live uint64) bool {
		if live <= validateGCSpan {
			return false
		}
		debug.SetGCPercent(100)
		if ownLimit {
			debug.SetMemoryLimit(math.MaxInt64)
		}
		return true
	})
}

// afterEachGC calls fn with the live heap after each collection until fn
// returns true. It runs on the runtime's cleanup goroutine: fn must be
// quick.
func afterEachGC(fn func(live uint64) (stop bool)) {
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	var arm func()
	arm = func() {
		// Pointer-free and at least 16 bytes: not batched by the tiny
		// allocator, so it is freed by the first collection after this.
		sentinel := new([32]byte)
		runtime.AddCleanup(sentinel, func(struct{}) {
			metrics.Read(sample)
			if !fn(sample[0].Value.Uint64()) {
				arm()
			}
		}, struct{}{})
	}
	arm()
}
