package flowtest

import (
	"strings"
	"testing"
	"time"
)

// FuzzParseDuration: a fixture duration (advance_clock, a stub's delay) is
// never negative or past 100000 days once accepted, so no CPU-dependent
// conversion (NaN) reaches a turn; a refusal names the value, and upstream's
// delay text for it never panics.
func FuzzParseDuration(f *testing.F) {
	for _, s := range []string{"", "500ms", "9m", "11d", "1.5d", "NaNd", "nand", "Infd", "-1d", "1e5d", "1e-300d", "0x1p-2d", "1d2h", "d", " 2s "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := parseDuration(s)
		if err != nil {
			if !strings.Contains(err.Error(), "invalid duration") || d != 0 {
				t.Fatalf("%q: refusal %v with %v", s, err, d)
			}
			_ = delayErrorText(s, err)
			return
		}
		if _, days := strings.CutSuffix(strings.TrimSpace(s), "d"); days && (d < 0 || d > 100000*24*time.Hour) {
			t.Fatalf("%q read as %v", s, d)
		}
		if nanDays(s) && d != 0 {
			t.Fatalf("%q read as %v, want 0", s, d)
		}
	})
}
