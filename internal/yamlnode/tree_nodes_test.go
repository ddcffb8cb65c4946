package yamlnode

import (
	"runtime"
	"strings"
	"testing"
)

// Decode stops a document at the node past its limit on both parsers:
// yamlfast's (which allocates no more than the limit's nodes) and
// yaml.v3's (an anchor turns yamlfast down; the whole tree is built, then
// counted), at the same place; a document within the limit is whole.
func TestDecodeStopsPastTheNodeLimit(t *testing.T) {
	const limit = 1000
	list := "[" + strings.Repeat("1, ", 200_000) + "1]"
	for name, c := range map[string]struct {
		src     string
		over    bool
		col     int
		allocMB float64
	}{
		"fast":         {"a: " + list + "\n", true, 5 + 3*(limit-4), 2},
		"yaml.v3":      {"a: &x " + list + "\n", true, 8 + 3*(limit-4), 0},
		"under":        {"a: [1, 2]\nb: {c: d}\n", false, 0, 0},
		"under, alias": {"a: &x [1, 2]\nb: *x\n", false, 0, 0},
	} {
		t.Run(name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			doc, over, err := Decode([]byte(c.src), limit)
			runtime.ReadMemStats(&after)
			if err != nil {
				t.Fatal(err)
			}
			if (over != nil) != c.over || (over == nil) == (doc == nil) {
				t.Fatalf("over %v, doc %v; want over %v and a tree only without it", over, doc != nil, c.over)
			}
			// the document, the mapping, a and the list come first: item limit-4
			// (0-based, 3 columns each) is the node past the limit
			if over != nil && (over.Line != 1 || over.Col != c.col) {
				t.Errorf("over at %d:%d, want 1:%d", over.Line, over.Col, c.col)
			}
			if mb := float64(after.TotalAlloc-before.TotalAlloc) / (1 << 20); c.allocMB > 0 && mb > c.allocMB {
				t.Errorf("allocated %.1f MB past a %d-node limit, want at most %.0f", mb, limit, c.allocMB)
			}
		})
	}
}
