package yamlfast

import (
	"strings"
	"testing"

	"kitsoki/internal/testing/allocs"
)

// Count builds no tree: counting a list of n items allocates a few
// bytes per item at most (the input's own copies are the caller's), not
// the ~200 bytes of a yaml.Node each; the first document of a stream,
// which ParseWithin keeps, is built, and a later one is checked as counted.
func TestCountAllocatesNoNodes(t *testing.T) {
	t.Setenv(SwitchEnv, "") // Count counts either way; ParseWithin needs the front end on
	const items = 200_000
	list := "[" + strings.Repeat("1, ", items) + "1]\n"
	for name, src := range map[string]string{
		"flow list":      "a: " + list,
		"block list":     "a:\n" + strings.Repeat("  - x\n", items),
		"mapping":        strings.Repeat("k: 'v'\n", 1) + "m:\n" + strings.Repeat("  k: \"v\\tw\"\n", 1) + "l: " + list,
		"over the limit": "a: " + list,
		"later document": "a: 1\n---\n" + list,
	} {
		t.Run(name, func(t *testing.T) {
			max := 0
			if name == "over the limit" || name == "later document" {
				max = items / 2
			}
			data := []byte(src)
			var over *Over
			var d *Declined
			spent := allocs.During(func() { over, d = Count(data, max) })
			if (max > 0) != (over != nil || d != nil && d.Why == LaterOver) {
				t.Fatalf("over %v, declined %v with max %d", over, d, max)
			}
			if max == 0 && (over != nil || d != nil) {
				t.Fatalf("over %v, declined %v within no limit", over, d)
			}
			if per := float64(spent) / items; per > 4 {
				t.Errorf("allocated %d bytes (%.1f a node) counting %d nodes, want no node built", spent, per, items)
			}
		})
	}
	// ParseWithin keeps the first document and checks a later one as Count does
	data := []byte("a: 1\n---\n" + list)
	spent := allocs.During(func() {
		if _, ok := parseDoc(data); !ok {
			t.Fatal("declined")
		}
	})
	if per := float64(spent) / items; per > 4 {
		t.Errorf("ParseWithin allocated %.1f bytes a node of a later document, want none built", per)
	}
}

// ParseWithin refuses a document past its limit without building the
// limit's nodes first: a file large enough to pass it is counted before
// anything is built (a 2-million-node limit cost about 400 MB of nodes
// before the refusal, BenchmarkParseLimitPastTheLimit). The refusal's
// place is the one the build stops at, and a file within the limit is
// still built whole.
func TestParseLimitBuildsNothingPastTheLimit(t *testing.T) {
	t.Setenv(SwitchEnv, "")
	const items, limit = 200_000, 100_000
	data := []byte("a: [" + strings.Repeat("1, ", items) + "1]\n")
	var over *Over
	var ok bool
	spent := allocs.During(func() { _, ok, over = parseLimit(data, limit) })
	if ok || over == nil || over.Line != 1 || over.Col != 5+3*(limit-4) {
		t.Fatalf("ok %v, over %+v; want over at 1:%d", ok, over, 5+3*(limit-4))
	}
	if per := float64(spent) / limit; per > 4 {
		t.Errorf("allocated %d bytes (%.1f a node of the limit) refusing a file past %d nodes, want no node built", spent, per, limit)
	}
	if doc, ok, over := parseLimit(data, items+5); !ok || over != nil || len(doc.Content[0].Content[1].Content) != items+1 {
		t.Errorf("within the limit: ok %v, over %v", ok, over)
	}
}
