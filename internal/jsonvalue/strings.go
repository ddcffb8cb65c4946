package jsonvalue

// MapStrings returns a copy of the maps (map[string]any) and slices
// ([]any) of v in which every string value s is f(s) and, when keys is
// set, every map key k is f(k); every other value is shared as it is. It is
// how a masker rewrites a decoded JSON value without touching the
// original.
func MapStrings(v any, f func(string) string, keys bool) any {
	switch x := v.(type) {
	case string:
		return f(x)
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			if keys {
				k = f(k)
			}
			out[k] = MapStrings(e, f, keys)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = MapStrings(e, f, keys)
		}
		return out
	}
	return v
}
