package cmd

import (
	"strings"
	"testing"
)

// FuzzParseRate: any --limit-rate: no panic; a rate is empty (0, no limit)
// or within 1K..1T bytes a second, and a rejection says what a rate is.
func FuzzParseRate(f *testing.F) {
	for _, s := range []string{"", "2048", "500K", "1.5M", "1g", "NaNK", "-1M", "0x1p10K", "1e400", "InfG", " 1k ", "1024.0000000001"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := parseRate(s)
		switch {
		case err != nil:
			if v != 0 || !strings.Contains(err.Error(), "want a rate of at least 1K per second") {
				t.Fatalf("%q: %d, %v", s, v, err)
			}
		case strings.TrimSpace(s) == "":
			if v != 0 {
				t.Fatalf("%q: %d, want 0 (no limit)", s, v)
			}
		case v < 1024 || v > 1<<40:
			t.Fatalf("%q: rate %d out of 1K..1T", s, v)
		}
	})
}
