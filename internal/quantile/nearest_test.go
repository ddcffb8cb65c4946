package quantile

import "testing"

func TestNearestRank(t *testing.T) {
	ten := []int64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	twenty := make([]int64, 20)
	for i := range twenty {
		twenty[i] = int64(i + 1)
	}
	for _, c := range []struct {
		name string
		v    []int64
		q    float64
		want int64
	}{
		{"one value", []int64{7}, 0.95, 7},
		{"median of ten", ten, 0.50, 5},
		{"p90 of ten", ten, 0.90, 9},
		{"p95 of ten", ten, 0.95, 10},
		{"p99 of ten", ten, 0.99, 10},
		{"p95 of twenty", twenty, 0.95, 19},
		{"q 0 is the first", ten, 0, 1},
		{"q 1 is the last", ten, 1, 10},
	} {
		if got := NearestRank(c.v, c.q); got != c.want {
			t.Errorf("%s: NearestRank(%v, %v) = %d, want %d", c.name, c.v, c.q, got, c.want)
		}
	}
	if got := NearestRank([]float64{0.1, 0.2, 0.4}, 0.95); got != 0.4 {
		t.Errorf("float p95 = %v, want 0.4", got)
	}
}
