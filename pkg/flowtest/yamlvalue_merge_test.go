package flowtest

import (
	"fmt"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"kitsoki/internal/testing/allocs"
)

// What merge keys copy counts against a fixture value's alias budget: a
// chain of mappings each merging the one before copies the chain into
// every link (quadratic in the links) while visiting only a few nodes.
func TestFixtureMergeChainBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString("x0: &a0 {k0: 1}\n")
	const n = 95 // links, under the depth limit
	for i := 1; i < n; i++ {
		fmt.Fprintf(&b, "x%d: &a%d {<<: *a%d, k%d: 1}\n", i, i, i-1, i)
	}
	for i := range 280 { // each copies the whole chain again
		fmt.Fprintf(&b, "y%d: *a%d\n", i, n-1)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(b.String()), &doc); err != nil {
		t.Fatal(err)
	}
	var err error
	got := allocs.During(func() { _, err = plainValue(&doc) })
	if err == nil || !strings.Contains(err.Error(), "value too large") {
		t.Fatalf("a merge chain of %d links: %v; want the alias budget's error", n, err)
	}
	if got > 16<<20 {
		t.Fatalf("reading a %d-byte merge chain allocated %d MB; want it bounded by the alias budget", b.Len(), got>>20)
	}
}
