package duration

import (
	"strings"
	"testing"
	"time"
)

func TestParse(t *testing.T) {
	for in, want := range map[string]time.Duration{
		"90s": 90 * time.Second, "2d": 48 * time.Hour, " 5m ": 5 * time.Minute, "0s": 0,
		"0d": 0, "1h30m": 90 * time.Minute, "250ms": 250 * time.Millisecond, "0": 0,
		"106751d": 106751 * 24 * time.Hour, "1.5d": 36 * time.Hour, ".5d": 12 * time.Hour,
		"+1d": 24 * time.Hour, "2.5e-1d": 6 * time.Hour,
	} {
		if d, err := Parse(in); err != nil || d != want {
			t.Errorf("%q = %v %v, want %v", in, d, err, want)
		}
	}
	for in, msg := range map[string]string{
		"":                      "use a Go duration",
		"d":                     "use a Go duration",
		"3 days":                "use a Go duration",
		"1d2h":                  "use a Go duration",
		"1.5 d":                 "use a Go duration",
		"-1d":                   "must not be negative",
		"NaNd":                  "too many days",
		"Infd":                  "too many days",
		"-5s":                   "must not be negative",
		"106752d":               "too many days",
		"99999999999999999999d": "too many days",
	} {
		_, err := Parse(in)
		if err == nil || !strings.Contains(err.Error(), msg) || !strings.Contains(err.Error(), `"`+strings.TrimSpace(in)+`"`) {
			t.Errorf("%q: err = %v, want one naming the value and saying %q", in, err, msg)
		}
	}
}

func TestNever(t *testing.T) {
	for in, want := range map[string]bool{
		"-5s": true, "-1d": true, "-0.5d": true, "NaNd": true, "Infd": true, "-Infd": true,
		"200000.5d": true, "5s": false, "1.5d": false, "d": false, "1d2h": false, "0d": false,
	} {
		if got := Never(in); got != want {
			t.Errorf("Never(%q) = %v, want %v", in, got, want)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"5m", "1d", "90s", "1h30m", "-1s", "999999999999d", "", "106751d", " 2d "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := Parse(s)
		if err == nil && d < 0 {
			t.Errorf("%q parsed to a negative duration %v", s, d)
		}
		if err != nil && d != 0 {
			t.Errorf("%q: error %v with a non-zero duration %v", s, err, d)
		}
	})
}
