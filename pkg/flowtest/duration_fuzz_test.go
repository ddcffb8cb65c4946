package flowtest

import (
	"math"
	"strings"
	"testing"
	"time"
)

// FuzzParseDuration: a fixture duration (advance_clock, a stub's delay)
// that upstream reads is read, and no CPU-dependent conversion reaches a
// turn: a day count past time.Duration's range is the most negative
// duration (amd64's conversion) on every CPU, NaN days 0, any other day
// count its days in nanoseconds; a refusal names the value, and upstream's
// delay text for it never panics.
func FuzzParseDuration(f *testing.F) {
	for _, s := range []string{"", "500ms", "9m", "11d", "1.5d", "NaNd", "nand", "Infd", "-1d", "1e5d", "1e-300d", "0x1p-2d", "1d2h", "d", " 2s ", "106752d", "-Infd"} {
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
		days, ok := dayCount(s)
		if !ok {
			return
		}
		ns := days * float64(24*time.Hour)
		switch {
		case math.IsNaN(days):
			if d != 0 {
				t.Fatalf("%q read as %v, want 0", s, d)
			}
		case ns <= -(1<<63) || ns >= 1<<63:
			if d != math.MinInt64 || (ns > 0) != overDays(s) {
				t.Fatalf("%q read as %v (warned %v), want the most negative duration", s, d, overDays(s))
			}
		case d != time.Duration(ns):
			t.Fatalf("%q read as %v, want %v", s, d, time.Duration(ns))
		}
	})
}
