package cmd

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
)

// A validate run is short and, over a tree of stories, allocates much and
// keeps little. Each page of heap a fresh process touches for the first
// time costs a page fault, so a small run is cheapest with a small heap
// that the collector reuses, and a large story with few collections. The
// collector's percent follows the live heap: GOGC=200 up to
// validateGCSmall held, rising in proportion to GOGC=800 at twice that,
// raised after each collection. Under a soft memory limit of
// validateGCLimit, raised once the live heap passes validateGCSpan by two
// bytes for each byte more it holds. A small tree never reaches the limit;
// a large story collects about as often as under the default GOGC=100,
// and its peak grows with what it holds, with no step where the policy
// changes, and the collector never runs without pause under a limit the
// live heap has reached.
const (
	validateGCLimit = 72 << 20
	validateGCSpan  = 48 << 20
	validateGCSmall = 4 << 20
)

// tuneValidateGC sets the collector for a validate run unless GOGC says
// otherwise; a GOMEMLIMIT caps the soft limit.
func tuneValidateGC() {
	if _, set := os.LookupEnv("GOGC"); set {
		return
	}
	debug.SetGCPercent(gcPercent(0))
	ceiling := debug.SetMemoryLimit(-1) // GOMEMLIMIT, or no limit
	debug.SetMemoryLimit(min(ceiling, validateGCLimit))
	afterEachGC(func(live uint64) bool {
		debug.SetGCPercent(gcPercent(live))
		debug.SetMemoryLimit(softLimit(live, ceiling))
		return false
	})
}

// gcPercent is the collector's percent for a run that holds live bytes:
// 200 up to validateGCSmall, 800 from twice that, in proportion between.
func gcPercent(live uint64) int {
	const lo, hi = 200, 800
	switch {
	case live <= validateGCSmall:
		return lo
	case live >= 2*validateGCSmall:
		return hi
	}
	return lo + int((hi-lo)*(live-validateGCSmall)/validateGCSmall)
}

// softLimit is the memory limit for a run that holds live bytes:
// validateGCLimit, plus twice what live holds past validateGCSpan, at most
// ceiling.
func softLimit(live uint64, ceiling int64) int64 {
	if live >= uint64(ceiling) {
		return ceiling
	}
	base := min(ceiling, validateGCLimit)
	if live <= validateGCSpan {
		return base
	}
	past := live - validateGCSpan
	if past >= uint64(ceiling-base)/2 {
		return ceiling
	}
	return base + 2*int64(past)
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
