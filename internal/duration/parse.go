package duration

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// maxDays is the most whole days a time.Duration holds (about 106,751).
const maxDays = int64(1<<63-1) / int64(24*time.Hour)

// Parse reads a Go duration ("90s", "5m", "1h30m") or a whole number of
// days on its own ("2d"), around spaces. Negative durations, mixed forms
// ("1d2h", "1.5d") and day counts a time.Duration cannot hold are errors.
func Parse(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	if num, ok := strings.CutSuffix(s, "d"); ok && num != "" && strings.Trim(num, "0123456789") == "" {
		n, err := strconv.ParseInt(num, 10, 64)
		if err != nil || n > maxDays {
			return 0, fmt.Errorf("invalid duration %q: too many days (at most %d)", s, maxDays)
		}
		return time.Duration(n) * 24 * time.Hour, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("invalid duration %q (use a Go duration such as 90s or 5m, or Nd for days)", s)
	}
	if d < 0 {
		return 0, fmt.Errorf("invalid duration %q: must not be negative", s)
	}
	return d, nil
}

// Negative reports whether s is a Go duration below zero ("-5m"): Parse
// refuses it, though upstream's loader takes it (such a timeout never
// fires there).
func Negative(s string) bool {
	d, err := time.ParseDuration(strings.TrimSpace(s))
	return err == nil && d < 0
}
