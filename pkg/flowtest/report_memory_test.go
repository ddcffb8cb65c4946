package flowtest

import (
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/jsoncost"
	"kitsoki/internal/testing/allocs"
)

// TestParseReportBoundsMemory: a shard report of empty {} events, turns or
// results (two or three bytes each, a hundred to nine hundred once decoded) is refused
// before it is decoded, allocating a small multiple of its size; decoding
// it took some 300 times its size (a 60 MB report: 11 GB RSS). The
// estimate's floor is lowered from jsoncost.Floor to 1 MiB, so a hundredth
// of the empties the product's floor needs passes it; the same documents
// under the product's floor are read (TestParseReportFloorIsTheProducts).
func TestParseReportBoundsMemory(t *testing.T) {
	for name, doc := range emptiesReports {
		path := filepath.Join(t.TempDir(), "shard.json")
		var err error
		spent := allocs.During(func() { _, err = parseReport(path, []byte(doc), 1<<20) })
		t.Logf("%s: %d bytes, allocated %d", name, len(doc), spent)
		if err == nil || !strings.Contains(err.Error(), path+": ") || !strings.Contains(err.Error(), "once read") {
			t.Errorf("%s: err = %v, want a refusal naming the file", name, err)
		}
		if spent > 4*uint64(len(doc)) {
			t.Errorf("%s: reading a %d-byte report allocated %d bytes, over 4 times its size", name, len(doc), spent)
		}
	}
}

// emptiesReports are reports of empty {} events, turns or results, each
// estimated at over 1 MiB once decoded and under jsoncost.Floor.
var emptiesReports = func() map[string]string {
	empties := func(n int) string { return strings.TrimSuffix(strings.Repeat("{},", n), ",") }
	return map[string]string{
		"events":  `{"Results":[{"File":"a","Turns":[{"TurnIndex":0,"Events":[` + empties(4_000) + `]}]}],"Passed":0,"Failed":1}`,
		"turns":   `{"Results":[{"File":"a","Turns":[` + empties(25_000) + `]}],"Passed":0,"Failed":1}`,
		"results": `{"results":[` + empties(30_000) + `],"Passed":0,"Failed":0}`,
	}
}()

// TestParseReportFloorIsTheProducts: ParseReport refuses by
// jsoncost.OverFor's limit (12 times the size, at least 256 MiB): the documents
// TestParseReportBoundsMemory has refused at a 1 MiB floor are read.
func TestParseReportFloorIsTheProducts(t *testing.T) {
	if jsoncost.Ratio != 12 || jsoncost.Floor != 256<<20 {
		t.Fatalf("jsoncost.Ratio %d, Floor %d; want 12 times and 256 MiB", jsoncost.Ratio, jsoncost.Floor)
	}
	for name, doc := range emptiesReports {
		path := filepath.Join(t.TempDir(), "shard.json")
		if _, err := ParseReport(path, []byte(doc)); err != nil {
			t.Errorf("%s: ParseReport: %v", name, err)
		}
	}
}
