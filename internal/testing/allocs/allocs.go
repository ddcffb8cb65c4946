package allocs

import "runtime"

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
