package allocs

import (
	"runtime"
	"testing"
)

// During runs f after a collection and returns the bytes the process
// allocated meanwhile (runtime.MemStats.TotalAlloc).
func During(f func()) uint64 {
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// PerRun is testing.AllocsPerRun(runs, f), the least of three measures.
// The count is process-wide: a goroutine f does not own (one an earlier
// test left winding down, the race detector's) can add to one measure,
// while an allocation in f adds to every one.
func PerRun(runs int, f func()) float64 {
	least := testing.AllocsPerRun(runs, f)
	for range 2 {
		least = min(least, testing.AllocsPerRun(runs, f))
	}
	return least
}
