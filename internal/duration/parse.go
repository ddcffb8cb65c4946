package duration

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// maxDays is the most days a time.Duration holds (about 106,751).
const maxDays = float64(1<<63-1) / float64(24*time.Hour)

// Parse reads a Go duration ("90s", "5m", "1h30m") or a day count on its
// own ("2d", "1.5d", ".5d"), around spaces, as upstream's app.ParseDuration
// does. Negative durations, mixed forms ("1d2h") and day counts a
// time.Duration cannot hold (NaN, ±Inf, beyond about 106,751 days) are
// errors; [Never] tells which of them upstream loads anyway.
func Parse(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	if num, ok := strings.CutSuffix(s, "d"); ok {
		f, err := strconv.ParseFloat(num, 64)
		switch {
		case err != nil:
			return 0, fmt.Errorf("invalid duration %q (use a Go duration such as 90s or 5m, or Nd for days such as 2d or 1.5d)", s)
		case f < 0:
			return 0, fmt.Errorf("invalid duration %q: must not be negative", s)
		case math.IsNaN(f) || f > maxDays:
			return 0, fmt.Errorf("invalid duration %q: too many days (at most %.0f)", s, math.Floor(maxDays))
		}
		return time.Duration(f * float64(24*time.Hour)), nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("invalid duration %q (use a Go duration such as 90s or 5m, or Nd for days such as 2d or 1.5d)", s)
	}
	if d < 0 {
		return 0, fmt.Errorf("invalid duration %q: must not be negative", s)
	}
	return d, nil
}

// Never reports whether s is a duration upstream's loader takes but whose
// timeout never fires there: a Go duration below zero ("-5m"), or a day
// count below zero, NaN, ±Inf or beyond what a time.Duration holds
// ("-1d", "NaNd", "200000d"), which upstream's float-to-duration conversion
// turns negative on amd64 (conformance lint-negative-timeout,
// timeout-float-days). Parse refuses them all.
func Never(s string) bool {
	s = strings.TrimSpace(s)
	if num, ok := strings.CutSuffix(s, "d"); ok {
		f, err := strconv.ParseFloat(num, 64)
		return err == nil && (f < 0 || math.IsNaN(f) || f > maxDays)
	}
	d, err := time.ParseDuration(s)
	return err == nil && d < 0
}
