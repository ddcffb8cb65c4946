package story

import (
	"math"
	"strconv"
	"strings"
)

// IncrementText is the delta the existing engine's loader reads from an
// increment: value written as text (a quoted string, or a plain scalar
// such as 1e3 that kitsoki keeps as text), and whether it loads at all.
// Its YAML decoder converts the text to an int: digits with an optional
// "+" and "_" separators as they are ("2", "+2", "1_000"), else a finite
// decimal float truncated toward zero ("2.5" adds 2, "1e3" 1000). Text
// with whitespace around it, a template, hex, an empty string, infinities
// and values past the int64 range do not load, and neither does a
// negative one (its decoder reports "overflow" for "-1" and "-1e0"; "-0"
// is 0). Conformance increment-text records each case.
func IncrementText(s string) (int, bool) {
	if s == "" || strings.TrimSpace(s) != s {
		return 0, false
	}
	if strings.HasPrefix(s, "-") {
		if f, err := strconv.ParseFloat(s, 64); err == nil && f == 0 {
			return 0, true
		}
		return 0, false
	}
	t := strings.TrimPrefix(s, "+")
	if t == "" || t[0] == '_' || strings.HasSuffix(t, "_") || strings.Contains(t, "__") {
		return 0, false
	}
	if strings.Trim(t, "0123456789_") == "" {
		n, err := strconv.ParseInt(strings.ReplaceAll(t, "_", ""), 10, 64)
		return int(n), err == nil
	}
	f, err := strconv.ParseFloat(t, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) || f >= 1<<63 {
		return 0, false
	}
	return int(f), true
}
