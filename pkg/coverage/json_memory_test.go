package coverage

import (
	"runtime"
	"strings"
	"testing"
)

// TestParseJSONBoundsMemory: a profile of a million empty {} items (3 MB;
// over 300 MB decoded) or files is refused before it is decoded, allocating
// a small multiple of its size. The editor reads a repository's
// .kitsoki/coverage.json (up to 64 MiB: some 7 GB decoded), test merge
// other jobs' shards.
func TestParseJSONBoundsMemory(t *testing.T) {
	empties := strings.TrimSuffix(strings.Repeat("{},", 1_000_000), ",")
	for name, doc := range map[string]string{
		"items": `{"kitsoki_coverage":1,"files":[{"path":"a.yaml","items":[` + empties + `]}]}`,
		"files": `{"kitsoki_coverage":1,"files":[` + strings.TrimSuffix(strings.Repeat("{},", 4_000_000), ",") + `]}`,
	} {
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err := ParseJSON("p.json", []byte(doc))
		runtime.ReadMemStats(&after)
		spent := after.TotalAlloc - before.TotalAlloc
		t.Logf("%s: %d bytes, allocated %d", name, len(doc), spent)
		if err == nil || !strings.Contains(err.Error(), "p.json: ") || !strings.Contains(err.Error(), "once read") {
			t.Errorf("%s: err = %v, want a refusal naming the file", name, err)
		}
		if spent > 4*uint64(len(doc)) {
			t.Errorf("%s: parsing a %d-byte profile allocated %d bytes, over 4 times its size", name, len(doc), spent)
		}
	}
}
