package coverage

import (
	"bytes"
	"math"
	"testing"

	"kitsoki/pkg/engine"
)

// TestMergeCountsSaturate: shard profiles come from other CI jobs; two
// whose counts for one item add past the int64 range merge to the
// largest count, not a negative one (before, MaxInt64 + 1 wrapped to
// -9223372036854775808: the item read as never reached and the merged
// profile was one kitsoki refuses to read back, 'a count is 0 or more').
func TestMergeCountsSaturate(t *testing.T) {
	one := func(n int64) *Profile {
		return &Profile{Files: []*File{{Path: "app.yaml", Items: []Item{{Kind: engine.ReachArc, Line: 5, Col: 9, State: "a", Label: "on go → b", Count: n}}}}}
	}
	m := Merge(one(math.MaxInt64), one(1), one(math.MaxInt64))
	if got := m.Files[0].Items[0].Count; got != math.MaxInt64 {
		t.Errorf("merged count %d, want %d", got, int64(math.MaxInt64))
	}
	var b bytes.Buffer
	if err := WriteJSON(&b, m); err != nil {
		t.Fatal(err)
	}
	if _, err := ParseJSON("merged.json", b.Bytes()); err != nil {
		t.Errorf("the merged profile does not read back: %v", err)
	}
}
