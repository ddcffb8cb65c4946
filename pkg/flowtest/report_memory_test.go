package flowtest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/allocs"
)

// TestReadReportBoundsMemory: a shard report of empty {} events, turns or
// results (two or three bytes each, a hundred to nine hundred once decoded) is refused
// before it is decoded, allocating a small multiple of its size; decoding
// it took some 300 times its size (a 60 MB report: 11 GB RSS).
func TestReadReportBoundsMemory(t *testing.T) {
	empties := func(n int) string { return strings.TrimSuffix(strings.Repeat("{},", n), ",") }
	// Enough of each to pass jsoncost.Floor once decoded.
	for name, doc := range map[string]string{
		"events":  `{"Results":[{"File":"a","Turns":[{"TurnIndex":0,"Events":[` + empties(400_000) + `]}]}],"Passed":0,"Failed":1}`,
		"turns":   `{"Results":[{"File":"a","Turns":[` + empties(2_500_000) + `]}],"Passed":0,"Failed":1}`,
		"results": `{"results":[` + empties(3_000_000) + `],"Passed":0,"Failed":0}`,
	} {
		path := filepath.Join(t.TempDir(), "shard.json")
		if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
		var err error
		spent := allocs.During(func() { _, err = ReadReport(path) })
		t.Logf("%s: %d bytes, allocated %d", name, len(doc), spent)
		if err == nil || !strings.Contains(err.Error(), path+": ") || !strings.Contains(err.Error(), "once read") {
			t.Errorf("%s: err = %v, want a refusal naming the file", name, err)
		}
		if spent > 4*uint64(len(doc)) {
			t.Errorf("%s: reading a %d-byte report allocated %d bytes, over 4 times its size", name, len(doc), spent)
		}
	}
}
