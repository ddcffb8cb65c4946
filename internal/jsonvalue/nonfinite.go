package jsonvalue

import (
	"math"
	"strconv"
)

// NonFiniteText returns v with every NaN or infinite float64 (inside maps
// and slices too) replaced by its text, "NaN", "+Inf" or "-Inf": the form
// the existing engine compares such a world value by (flow-format.md
// §3.3), so JSON, which holds no such number, can still carry it. A value
// holding none is returned as it is; otherwise the maps and slices on the
// way are copied and v is never written.
func NonFiniteText(v any) any {
	if !HasNonFinite(v) {
		return v
	}
	return MapLeaves(v, func(x any) any {
		if f, ok := x.(float64); ok && isNonFinite(f) {
			return NonFiniteString(f)
		}
		return x
	})
}

// NonFiniteString is the text [NonFiniteText] writes for f.
func NonFiniteString(f float64) string {
	if math.IsInf(f, 1) {
		return "+Inf"
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}

func isNonFinite(f float64) bool { return math.IsNaN(f) || math.IsInf(f, 0) }

// HasNonFinite reports whether v holds a NaN or infinite float64.
func HasNonFinite(v any) bool { return AnyFloat(v, isNonFinite) }

// AnyFloat reports whether v, or a value inside its maps and slices, is a
// float64 for which pred holds.
func AnyFloat(v any, pred func(float64) bool) bool {
	switch x := v.(type) {
	case float64:
		return pred(x)
	case map[string]any:
		for _, e := range x {
			if AnyFloat(e, pred) {
				return true
			}
		}
	case []any:
		for _, e := range x {
			if AnyFloat(e, pred) {
				return true
			}
		}
	}
	return false
}
