package cmd

import (
	"math"
	"testing"
)

// gcPolicy is a collector policy as the runtime sees it after a
// collection that left live bytes: the percent and the soft limit.
type gcPolicy func(live uint64) (percent int, limit int64)

// validatePolicy is tuneValidateGC's, with no GOMEMLIMIT.
func validatePolicy(live uint64) (int, int64) {
	return gcPercent(live), softLimit(live, math.MaxInt64)
}

// defaultPolicy is Go's with neither GOGC nor GOMEMLIMIT set.
func defaultPolicy(uint64) (int, int64) { return 100, math.MaxInt64 }

// simulateGC runs a simulated validate under policy: after each
// collection the heap may grow to the goal (the percent's, capped by the
// soft limit less the runtime's own memory beside the heap, modelled as
// an eighth of the heap and 4 MiB), of which the fraction kept stays
// live, until the live heap reaches final. It returns the number of
// collections and the least headroom (goal less live) one left, as a
// fraction of the live heap.
func simulateGC(policy gcPolicy, kept float64, final uint64) (collections int, leastRoom float64) {
	const minHeap = 4 << 20
	live := uint64(1 << 20)
	leastRoom = math.Inf(1)
	for live < final && collections < 1e6 {
		percent, limit := policy(live)
		goal := max(live+live*uint64(percent)/100, minHeap)
		if byLimit := float64(limit)/(1+1.0/8) - 4<<20; byLimit < float64(goal) {
			goal = uint64(max(byLimit, float64(live)))
		}
		room := goal - live
		leastRoom = min(leastRoom, float64(room)/float64(live))
		// Under a limit the live heap has reached, the collector runs
		// again at once: a collection's worth of allocation still
		// happens meanwhile (the runtime caps the collector's share of
		// the CPU), modelled as 1 MiB.
		live += uint64(kept * float64(max(room, 1<<20)))
		collections++
	}
	return collections, leastRoom
}

// The validate policy never leaves the collector running without pause
// and collects at most twice as often as Go's default, for a story of any
// size and a run that keeps any share of what it allocates: counted over
// simulated runs, so no clock is involved. A fixed limit that the live
// heap outgrows (the pathology: a collection after every megabyte) fails.
func TestValidateGCPolicyCollectionsBounded(t *testing.T) {
	const mib = 1 << 20
	fixed := func(live uint64) (int, int64) { return gcPercent(live), validateGCLimit }
	for _, final := range []uint64{8 * mib, 64 * mib, 256 * mib, 2048 * mib} {
		for _, kept := range []float64{0.02, 0.1, 0.3, 0.7} {
			got, room := simulateGC(validatePolicy, kept, final)
			def, _ := simulateGC(defaultPolicy, kept, final)
			t.Logf("final %4d MiB kept %.2f: %5d collections (default %5d), least headroom %.2f of live", final/mib, kept, got, def, room)
			if got > 2*def+4 {
				t.Errorf("final %d MiB, kept %.2f: %d collections, over twice the default's %d", final/mib, kept, got, def)
			}
			if room < 0.25 {
				t.Errorf("final %d MiB, kept %.2f: a collection left %.2f of the live heap as headroom: the collector runs almost without pause", final/mib, kept, room)
			}
			if final > validateGCLimit {
				if n, _ := simulateGC(fixed, kept, final); n <= 2*def+4 {
					t.Errorf("the simulation misses the pathology: a fixed %d MiB limit collects %d times (default %d)", validateGCLimit/mib, n, def)
				}
			}
		}
	}
}
