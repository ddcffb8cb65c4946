package cmd

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
)

// A validate run is short and, over a tree of stories, allocates much and
// keeps little: it collects at 9x the live heap (GOGC=800) under a soft
// memory limit of validateGCLimit or one and a half times the live heap,
// whichever is more, raised after each collection. A small tree never
// reaches the limit; a large story collects about as often as under
// GOGC=50, so its peak grows with what it holds, with no step where the
// policy changes, and the collector never runs without pause under a
// limit the live heap has reached.
const validateGCLimit = 72 << 20

// tuneValidateGC sets the collector for a validate run unless GOGC says
// otherwise; a GOMEMLIMIT caps the soft limit.
func tuneValidateGC() {
	if _, set := os.LookupEnv("GOGC"); set {
		return
	}
	debug.SetGCPercent(800)
	ceiling := debug.SetMemoryLimit(-1) // GOMEMLIMIT, or no limit
	debug.SetMemoryLimit(min(ceiling, validateGCLimit))
	afterEachGC(func(live uint64) bool {
		debug.SetMemoryLimit(softLimit(live, ceiling))
		return false
	})
}

// softLimit is the memory limit for a run that holds live bytes: at
// least validateGCLimit and one and a half times live, at most ceiling.
func softLimit(live uint64, ceiling int64) int64 {
	if live >= uint64(ceiling) {
		return ceiling
	}
	grown := min(live+live/2, uint64(ceiling))
	return max(min(ceiling, validateGCLimit), int64(grown))
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
