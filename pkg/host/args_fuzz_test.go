package host

import (
	"math"
	"strconv"
	"strings"
	"testing"
	"time"
)

// FuzzDurationArg: a host.run timeout written as any text is a positive
// duration, none, or a refusal on one line naming host.run's timeout,
// never a panic; a Go duration that time.ParseDuration reads positive is
// that duration; a number of seconds reads the same as text and as a
// number (30 and "30", 1.5 and "1.5").
func FuzzDurationArg(f *testing.F) {
	for _, s := range []string{"30", "1.5", "1m30s", "2d", "3 s", "", "  ", "0", "-1", "0s", "-2m", "abc", "1e-12", "NaN", "Inf",
		"9223372036854775807", "1e400", "300ms", "+5", ".5h", "1h1h"} {
		f.Add(s, 30.0)
	}
	f.Add("x", 1.5)
	f.Add("x", 1e-10)
	f.Add("x", 9.3e9)
	f.Add("x", math.Copysign(0, -1))
	f.Fuzz(func(t *testing.T, s string, secs float64) {
		d, err := durationArg("host.run", s)
		if err != nil {
			if msg := err.Error(); !strings.HasPrefix(msg, "host.run: timeout") || strings.ContainsAny(msg, "\n\r") {
				t.Fatalf("%q: refusal %q", s, msg)
			}
		} else if d < 0 {
			t.Fatalf("%q: negative timeout %v", s, d)
		}
		if pd, perr := time.ParseDuration(strings.TrimSpace(s)); perr == nil && pd > 0 && (err != nil || d != pd) {
			t.Fatalf("%q: read %v, %v; time.ParseDuration reads %v", s, d, err, pd)
		}
		if math.IsInf(secs, 0) || math.IsNaN(secs) {
			return
		}
		dn, errn := durationArg("host.run", secs)
		text := strconv.FormatFloat(secs, 'g', -1, 64)
		if _, perr := time.ParseDuration(text); perr == nil {
			return // "0" is a Go duration too
		}
		ds, errs := durationArg("host.run", text)
		if dn != ds || (errn == nil) != (errs == nil) {
			t.Fatalf("%v seconds read %v, %v as a number and %v, %v as %q", secs, dn, errn, ds, errs, text)
		}
	})
}
