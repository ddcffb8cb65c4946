package eval

import (
	"math"
	"unicode/utf8"
)

// asJSON turns v, as yaml.v3 decodes into any, into what a JSON round
// trip (json.Marshal, then json.Unmarshal into any) gives, in place: a
// number becomes a float64. It reports false, having changed nothing a
// caller keeps, on anything else (a timestamp, a mapping with a key that
// is not a string, a NaN, a string that is not UTF-8), which the caller
// sends through the round trip itself: a 1.9M-item args list made three
// copies of itself that way.
func asJSON(v any) (any, bool) {
	switch x := v.(type) {
	case nil, bool:
		return x, true
	case string:
		return x, utf8.ValidString(x)
	case int:
		return float64(x), true
	case int64:
		return float64(x), true
	case uint64:
		return float64(x), true
	case float64:
		return x, !math.IsNaN(x) && !math.IsInf(x, 0)
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			var ok bool
			if out[i], ok = asJSON(e); !ok {
				return nil, false
			}
		}
		return out, true
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			j, ok := asJSON(e)
			if !ok || !utf8.ValidString(k) {
				return nil, false
			}
			out[k] = j
		}
		return out, true
	}
	return nil, false
}
