package story

import "kitsoki/internal/yamlnode"

// IncrementText is the delta the existing engine's loader reads from an
// increment: value written as text (a quoted string, or a plain scalar
// such as 1e3 that kitsoki keeps as text), and whether it loads at all.
// Its YAML decoder reads the text as a decimal number cut toward zero
// ("2", "+2", "1_000", "2.5" adds 2, "1e3" 1000, "9223372036854775807"
// through a float, so the lowest int64, as "1e19"); text with whitespace
// around it, a template, hex, an empty string, a negative number ("-0" is
// 0), infinities and values past 2^64 do not load (yamlnode.IntegerText).
// Conformance increment-text and increment-big record each case.
func IncrementText(s string) (int, bool) {
	v, _, problem := yamlnode.IntegerText(s)
	return int(v), problem == ""
}

// IncrementFloat is the delta the loader reads from an increment: value
// written as a plain number with a point: cut toward zero (exact says
// whether nothing was cut), the lowest int64 at 2^63 or below -2^63;
// NaN and values above 2^63 do not load (yamlnode.IntegerFloat).
func IncrementFloat(f float64) (n int, exact, ok bool) {
	v, exact, problem := yamlnode.IntegerFloat(f)
	return int(v), exact, problem == ""
}
