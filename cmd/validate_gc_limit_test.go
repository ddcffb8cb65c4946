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

// The collector's percent follows the live heap with no step: GOGC=200
// for a small run (a fresh page costs a fault, a collection of a small
// heap little), rising by at most 150 per MiB more held to GOGC=800 for
// a large story.
func TestGCPercentHasNoStep(t *testing.T) {
	const mib = 1 << 20
	prev := gcPercent(0)
	if prev != 200 {
		t.Fatalf("empty heap: GOGC=%d, want 200", prev)
	}
	for live := uint64(mib / 4); live <= 64*mib; live += mib / 4 {
		got := gcPercent(live)
		if got < prev || got-prev > 38 { // 150 per MiB, rounded
			t.Fatalf("live %.2f MiB: GOGC=%d after %d at a quarter MiB less: a step", float64(live)/mib, got, prev)
		}
		prev = got
	}
	for _, c := range []struct {
		live uint64
		want int
	}{{2 * mib, 200}, {4 * mib, 200}, {6 * mib, 500}, {8 * mib, 800}, {100 * mib, 800}, {math.MaxUint64, 800}} {
		if got := gcPercent(c.live); got != c.want {
			t.Errorf("gcPercent(%d MiB) = %d, want %d", c.live/mib, got, c.want)
		}
	}
}
