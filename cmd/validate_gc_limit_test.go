package cmd

import (
	"math"
	"testing"
)

// The soft limit grows with the live heap with no step: from 72 MiB, at
// most two bytes for each byte more held, never under 1.5x what is held,
// never over GOMEMLIMIT.
func TestSoftLimitHasNoStep(t *testing.T) {
	const mib = 1 << 20
	prev := softLimit(0, math.MaxInt64)
	if prev != validateGCLimit {
		t.Fatalf("empty heap: limit %d MiB, want %d", prev/mib, validateGCLimit/mib)
	}
	for live := uint64(mib); live <= 400*mib; live += mib {
		got := softLimit(live, math.MaxInt64)
		if got < prev || got-prev > 2*mib {
			t.Fatalf("live %d MiB: limit %d MiB after %d MiB at one MiB less: a step", live/mib, got/mib, prev/mib)
		}
		if float64(got) < 1.5*float64(live) {
			t.Fatalf("live %d MiB: limit %d MiB, under 1.5x the live heap (the collector would run without pause)", live/mib, got/mib)
		}
		prev = got
	}
	for _, c := range []struct {
		live    uint64
		ceiling int64
		want    int64
	}{
		{0, 50 * mib, 50 * mib},
		{40 * mib, 50 * mib, 50 * mib},
		{100 * mib, math.MaxInt64, 176 * mib},
		{200 * mib, 256 * mib, 256 * mib},
		{math.MaxUint64, math.MaxInt64, math.MaxInt64},
		{math.MaxInt64 / 4 * 3, math.MaxInt64, math.MaxInt64},
	} {
		if got := softLimit(c.live, c.ceiling); got != c.want {
			t.Errorf("softLimit(%d, %d) = %d, want %d", c.live, c.ceiling, got, c.want)
		}
	}
}
