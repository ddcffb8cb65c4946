package jsonvalue

import (
	"encoding/json"
	"fmt"
)

// CopyNilAsEmpty returns a deep copy of the maps (map[string]any) and
// slices ([]any) of v, every other value shared as it is, in which every
// map is a new, non-nil one: a nil map[string]any (at the top or nested)
// becomes an empty map, which JSON encodes as {} rather than null.
func CopyNilAsEmpty(v any) any { return walk(v, nil, nil, true) }

// CopyMap returns a deep copy of the maps (map[string]any) and slices
// ([]any) of m; every other value is shared as it is. A nil map or
// slice, at the top or nested, stays nil.
func CopyMap(m map[string]any) map[string]any {
	return walk(m, nil, nil, false).(map[string]any)
}

// MapLeaves returns a deep copy of the maps (map[string]any) and slices
// ([]any) of v in which every other value is replaced by f of it. A nil
// map or slice, at the top or nested, stays nil.
func MapLeaves(v any, f func(any) any) any { return walk(v, f, nil, false) }

// walk is the deep copy of v's maps (map[string]any) and slices ([]any)
// that [MapLeaves], [MapStrings], [CopyMap] and [CopyNilAsEmpty] make:
// every other value is leaf of it (leaf nil: shared), every map key key of
// it (key nil: kept); a nil map or slice stays nil, or with nilAsEmpty
// becomes an empty one.
func walk(v any, leaf func(any) any, key func(string) string, nilAsEmpty bool) any {
	switch x := v.(type) {
	case map[string]any:
		if x == nil && !nilAsEmpty {
			return v
		}
		out := make(map[string]any, len(x))
		for k, e := range x {
			if key != nil {
				k = key(k)
			}
			out[k] = walk(e, leaf, key, nilAsEmpty)
		}
		return out
	case []any:
		if x == nil && !nilAsEmpty {
			return v
		}
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = walk(e, leaf, key, nilAsEmpty)
		}
		return out
	}
	if leaf == nil {
		return v
	}
	return leaf(v)
}

// CopyAsJSON returns a copy of v that shares nothing with it and holds only
// JSON shapes: maps and slices are copied, []string and map[string]string
// become []any and map[string]any, a [json.RawMessage] is copied, scalars
// stay, and anything else (structs, typed slices) is replaced by its JSON
// form — what a plugin sees on the wire. A value JSON cannot encode
// becomes nil.
func CopyAsJSON(v any) any {
	switch x := v.(type) {
	case nil, string, bool, int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64,
		float32, float64, json.Number:
		return v
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = CopyAsJSON(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = CopyAsJSON(e)
		}
		return out
	case []string:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = e
		}
		return out
	case map[string]string:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = e
		}
		return out
	case json.RawMessage:
		return append(json.RawMessage(nil), x...)
	default:
		b, err := json.Marshal(x)
		if err != nil {
			return nil
		}
		var c any
		if json.Unmarshal(b, &c) != nil {
			return nil
		}
		return c
	}
}

// RoundTrip encodes v as JSON and decodes it again (numbers float64, maps
// map[string]any). A value that cannot be encoded is returned as it is;
// nil stays nil.
func RoundTrip(v any) any {
	if v == nil {
		return nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return v
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		return v
	}
	return out
}

// Normalize returns a copy of a YAML-decoded value in JSON shapes: every
// map (map[string]any or map[any]any, keys printed with fmt.Sprint) becomes
// a new map[string]any, every []any a new slice; other values are shared.
// A nil map[string]any or []any stays nil (JSON null, as upstream's nil
// map of a call without data encodes, and its nil list of a git diff's
// files: conformance host-bind-nil-live, git-diff-files-nil).
func Normalize(v any) any { return MapLeaves(v, normalizeLeaf) }

// normalizeLeaf is Normalize of a value MapLeaves hands on: a map[any]any
// (a nil one too) becomes a new map[string]any; any other is shared.
func normalizeLeaf(v any) any {
	x, ok := v.(map[any]any)
	if !ok {
		return v
	}
	out := make(map[string]any, len(x))
	for k, e := range x {
		out[fmt.Sprint(k)] = Normalize(e)
	}
	return out
}
