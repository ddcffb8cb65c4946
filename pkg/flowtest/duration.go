package flowtest

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// parseDuration reads a fixture duration: a Go duration ("500ms", "9m")
// or "<float>d" days ("11d", "1.5d"); "" is 0. Mixing d with other units
// is an error, as upstream (flow-format.md §5.2). Any day count reads, as
// upstream: a negative one is a negative duration (no advance, no delay),
// as "-5s" is. A NaN day count ("NaNd") is 0: upstream converts NaN to a
// duration, which Go leaves to the CPU (the most negative duration on
// amd64, 0 on arm64); both mean no advance and no delay there, so 0 is the
// same on every CPU. A day count past time.Duration's range (106752d,
// Infd, -Infd) converts on amd64, where upstream runs, to the most
// negative duration: no advance and no delay (conformance
// fixture-day-range; flow-nan-duration warns at both).
func parseDuration(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, nil
	}
	if num, ok := strings.CutSuffix(s, "d"); ok {
		f, err := strconv.ParseFloat(num, 64)
		if err != nil {
			return 0, fmt.Errorf("invalid duration %q: a day count is a number followed by d, e.g. 11d or 1.5d", s)
		}
		if math.IsNaN(f) {
			return 0, nil
		}
		if ns := f * float64(24*time.Hour); ns > -(1<<63) && ns < 1<<63 {
			return time.Duration(ns), nil
		}
		return math.MinInt64, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("invalid duration %q: use a Go duration (500ms, 2s, 9m, 1h) or days (11d)", s)
	}
	return d, nil
}

// delayErrorText is upstream's text for a stub delay that does not parse
// (app.ParseDuration's, which a fixture can assert in last_error);
// err is ours, used when upstream would have read the value.
func delayErrorText(s string, err error) string {
	s = strings.TrimSpace(s)
	if num, ok := strings.CutSuffix(s, "d"); ok {
		if _, perr := strconv.ParseFloat(num, 64); perr != nil {
			return fmt.Sprintf("app.ParseDuration: %q: invalid day count: %v", s, perr)
		}
		return err.Error()
	}
	if _, perr := time.ParseDuration(s); perr != nil {
		return fmt.Sprintf("app.ParseDuration: %q: %v", s, perr)
	}
	return err.Error()
}

// nanDays reports whether s is a day count strconv reads as NaN ("NaNd"),
// which parseDuration takes as 0.
func nanDays(s string) bool {
	f, ok := dayCount(s)
	return ok && math.IsNaN(f)
}

// overDays reports whether s is a day count past time.Duration's range
// upward (106752d, Infd), which upstream converts as the CPU does and
// parseDuration as amd64 does.
func overDays(s string) bool {
	f, ok := dayCount(s)
	return ok && f*float64(24*time.Hour) >= 1<<63
}

// dayCount is the number of days s writes, if it is a day count strconv
// reads.
func dayCount(s string) (float64, bool) {
	num, ok := strings.CutSuffix(strings.TrimSpace(s), "d")
	f, err := strconv.ParseFloat(num, 64)
	return f, ok && err == nil
}
