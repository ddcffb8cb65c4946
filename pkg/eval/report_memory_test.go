package eval

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/allocs"
)

// TestLoadReportBoundsMemory: a report of empty {} candidates, failure
// samples or calls, or of tiny values under a sample's expect (decoded
// into maps), is refused before it is decoded, allocating a small
// multiple of its size; decoding took 50 to 240 times its size (a
// committed 16 MB report: eval show at 3.6 GB RSS).
func TestLoadReportBoundsMemory(t *testing.T) {
	empties := func(n int) string { return strings.TrimSuffix(strings.Repeat("{},", n), ",") }
	// Enough of each to pass jsoncost.Floor once decoded.
	for name, doc := range map[string]string{
		"candidates":      `{"kind":"agent_eval_report","candidates":[` + empties(300_000) + `]}`,
		"failure samples": `{"kind":"agent_eval_report","failure_samples":[` + empties(500_000) + `]}`,
		"calls":           `{"kind":"agent_eval_report","calls":[` + empties(600_000) + `]}`,
		"expect values":   `{"kind":"agent_eval_report","failure_samples":[{"expect":[` + empties(2_000_000) + `]}]}`,
	} {
		path := filepath.Join(t.TempDir(), "r.json")
		if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
		var err error
		spent := allocs.During(func() { _, err = LoadReport(path) })
		t.Logf("%s: %d bytes, allocated %d", name, len(doc), spent)
		if err == nil || !strings.Contains(err.Error(), path+": ") || !strings.Contains(err.Error(), "once read") {
			t.Errorf("%s: err = %v, want a refusal naming the file", name, err)
		}
		if spent > 4*uint64(len(doc)) {
			t.Errorf("%s: reading a %d-byte report allocated %d bytes, over 4 times its size", name, len(doc), spent)
		}
	}
}
