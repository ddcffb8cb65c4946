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
		"106751d": 106751 * 24 * time.Hour,
	} {
		if d, err := Parse(in); err != nil || d != want {
			t.Errorf("%q = %v %v, want %v", in, d, err, want)
		}
	}
	for in, msg := range map[string]string{
		"":                      "use a Go duration",
		"d":                     "use a Go duration",
		"3 days":                "use a Go duration",
		"1.5d":                  "use a Go duration",
		"1d2h":                  "use a Go duration",
		"-1d":                   "use a Go duration",
		"+1d":                   "use a Go duration",
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
