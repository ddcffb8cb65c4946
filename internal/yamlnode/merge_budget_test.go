package yamlnode

import (
	"fmt"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"kitsoki/internal/testing/allocs"
	"kitsoki/pkg/diag"
)

// What merge keys copy is taken from the node budget: a chain of mappings
// each merging the one before (x2: &a2 {<<: *a1, k2: 1}, ...) copies the
// chain into every link, so 4,000 links (240 KB) cost validate 16 s of CPU
// and allocations quadratic in the links, though each link visits only a
// few nodes. Now the walk stops with the budget.
func TestMergeChainSpendsTheBudget(t *testing.T) {
	var b strings.Builder
	b.WriteString("x0: &a0 {k0: 1}\n")
	const n = 2000
	for i := 1; i < n; i++ {
		fmt.Fprintf(&b, "x%d: &a%d {<<: *a%d, k%d: 1}\n", i, i, i-1, i)
	}
	src := b.String()
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
		t.Fatal(err)
	}
	var out []diag.Diagnostic
	w := NewWalker("chain.yaml", len(src), &out, &Rules{Syntax: &diag.Rule{ID: "yaml-syntax"}})
	got := allocs.During(func() { w.Raw(&doc) })
	if got > 400<<20 {
		t.Fatalf("walking a %d-byte merge chain allocated %d MB; want it bounded by the node budget", len(src), got>>20)
	}
	if len(out) == 0 {
		t.Fatal("the chain was read without an error")
	}
}
