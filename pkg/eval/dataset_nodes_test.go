package eval

import (
	"strings"
	"testing"

	"kitsoki/internal/testing/allocs"
	"kitsoki/internal/testing/refusal"
)

// A dataset was decoded whole by yaml.v3: a 16 MB one-line list of args
// took eval show 96 s and 2.4 GB. Its parse now stops at the node past
// the limit (a small one here) with an error naming the file, the place
// and the fix, having built none of its nodes (it is counted first).
func TestDatasetPastTheNodeLimitIsRefused(t *testing.T) {
	const limit = 1000
	src := "{kind: agent_eval, call: c, comparator: exact, examples: [{name: a, args: {x: [" + strings.Repeat("1,", 200_000) + "1]}}]}\n"
	var err error
	spent := allocs.During(func() { _, err = parseDatasetWithin("/p/evals/big.yaml", "evals/big.yaml", []byte(src), limit) })
	if err == nil || !strings.Contains(err.Error(), "evals/big.yaml:1:") || !strings.Contains(err.Error(), "more than 1000 YAML nodes") || !strings.Contains(err.Error(), "split the examples") {
		t.Fatalf("err = %v; want the node limit's refusal at its place", err)
	}
	refusal.Leads(t, []byte("a one-line list of 200,001 items"), err.Error(), "evals/big.yaml")
	if mb := float64(spent) / (1 << 20); mb > 8 {
		t.Errorf("the refused parse allocated %.1f MB, want at most 8 (a %d-node limit)", mb, limit)
	}
	if _, err := parseDatasetWithin("/p/evals/ok.yaml", "evals/ok.yaml", []byte("{kind: agent_eval, call: c, comparator: exact, examples: [{name: a, args: {x: [1, 2]}, expect: {y: 1}}]}\n"), limit); err != nil {
		t.Fatalf("a small dataset: %v", err)
	}
}
