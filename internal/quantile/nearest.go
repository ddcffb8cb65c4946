package quantile

import (
	"cmp"
	"math"
)

// NearestRank is the nearest-rank q-quantile of sorted, a non-empty slice in
// ascending order: the value at 1-based rank ceil(q*n), clamped to the first
// and last values, so q = 0.95 of 20 values is the 19th.
func NearestRank[T cmp.Ordered](sorted []T, q float64) T {
	i := int(math.Ceil(q*float64(len(sorted)))) - 1
	return sorted[min(max(i, 0), len(sorted)-1)]
}
