package jsonvalue

// MapStrings returns a copy of the maps (map[string]any) and slices
// ([]any) of v in which every string value s is f(s) and, when keys is
// set, every map key k is f(k); every other value is shared as it is. It is
// how a masker rewrites a decoded JSON value without touching the
// original.
func MapStrings(v any, f func(string) string, keys bool) any { return mapStrings(v, f, keys, true) }

// mapStrings is [MapStrings] (f nil: strings kept), [CopyMap]
// (nilAsEmpty false: a nil map stays nil) and [CopyNilAsEmpty].
func mapStrings(v any, f func(string) string, keys, nilAsEmpty bool) any {
	switch x := v.(type) {
	case string:
		if f != nil {
			return f(x)
		}
	case map[string]any:
		if x == nil && !nilAsEmpty {
			return x
		}
		out := make(map[string]any, len(x))
		for k, e := range x {
			if keys {
				k = f(k)
			}
			out[k] = mapStrings(e, f, keys, nilAsEmpty)
		}
		return out
	case []any:
		if x == nil && !nilAsEmpty {
			return x
		}
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = mapStrings(e, f, keys, nilAsEmpty)
		}
		return out
	}
	return v
}
