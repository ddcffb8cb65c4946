package host

import (
	"strings"
	"testing"

	"kitsoki/internal/testing/allocs"
)

// An output of many lines each opening an array ("[1,1,…" and no close
// until the last byte) made trailingJSON parse, and copy, the suffix from
// every line: work and allocation quadratic in the output (400 KB took
// 16 s; the 4 MiB host.run keeps, about half an hour). Only the suffix
// whose brackets close at the last byte is parsed now: the allocation of
// the scan stays a few times the output's size (it was 577 times it
// here, in 4.6 s).
func TestTrailingJSONIsLinear(t *testing.T) {
	out := strings.Repeat("["+strings.Repeat("1,", 100)+"\n", 1000) + "]"
	var found bool
	alloc := allocs.During(func() { _, _, found = trailingJSON(out) })
	if found {
		t.Fatal("a value was found in unbalanced output")
	}
	if alloc > 4*uint64(len(out)) {
		t.Fatalf("the scan of %d bytes allocated %d", len(out), alloc)
	}
	// the one balanced suffix is still found, whatever precedes it
	v, _, found := trailingJSON(out + "\n[2,\n[3]]")
	if !found || len(v.([]any)) != 2 {
		t.Fatalf("after the same lines: %v %v", v, found)
	}
}
