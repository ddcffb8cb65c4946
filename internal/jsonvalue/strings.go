package jsonvalue

// MapStrings returns a copy of the maps (map[string]any) and slices
// ([]any) of v in which every string value s is f(s) and, when keys is
// set, every map key k is f(k); every other value is shared as it is. It is
// how a masker rewrites a decoded JSON value without touching the
// original.
func MapStrings(v any, f func(string) string, keys bool) any {
	key := f
	if !keys {
		key = nil
	}
	return walk(v, func(v any) any {
		if s, ok := v.(string); ok {
			return f(s)
		}
		return v
	}, key, true)
}
