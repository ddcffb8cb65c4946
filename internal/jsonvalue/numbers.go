package jsonvalue

import (
	"encoding/json"
	"math"
	"reflect"
)

// Ints turns every [json.Number] in v into int (integral and in range) or
// float64, in place, and returns v (a bare number is returned converted).
// It is the form the engine binds handler results in.
func Ints(v any) any { return convertNumbers(v, false) }

// Int64s turns every [json.Number] in v into int64 (integral and in range)
// or float64, and every integral float64 below 2^53 in magnitude into
// int64 (what a decoder without UseNumber produced), in place; it returns
// v (a bare number is returned converted).
func Int64s(v any) any { return convertNumbers(v, true) }

// convertNumbers is [Ints] (int64s false) and [Int64s] (true).
func convertNumbers(v any, int64s bool) any {
	switch x := v.(type) {
	case json.Number:
		if n, err := x.Int64(); err == nil {
			if int64s {
				return n
			}
			return int(n)
		}
		f, _ := x.Float64()
		return f
	case float64:
		if int64s && x == math.Trunc(x) && math.Abs(x) < 1<<53 {
			return int64(x)
		}
	case map[string]any:
		for k, e := range x {
			x[k] = convertNumbers(e, int64s)
		}
	case []any:
		for i, e := range x {
			x[i] = convertNumbers(e, int64s)
		}
	}
	return v
}

// Integer reports whether v is one of Go's integer kinds (as a YAML or
// JSON decoder, or a caller, made it), returning its value as int64
// (false for an unsigned value above MaxInt64).
func Integer(v any) (int64, bool) {
	switch rv := reflect.ValueOf(v); {
	case rv.CanInt():
		return rv.Int(), true
	case rv.CanUint():
		return int64(rv.Uint()), rv.Uint() <= math.MaxInt64
	}
	return 0, false
}

// YAMLInts returns a deep copy of v (as [MapLeaves]) with every int in the
// shape upstream's YAML decoder gives a whole number: a uint64 when it is
// not negative, an int64 when it is. Only int is such a number: an int64
// is one upstream holds as an int64 too (an increment, a replayed int).
func YAMLInts(v any) any {
	return MapLeaves(v, func(leaf any) any {
		if n, ok := leaf.(int); ok {
			if n < 0 {
				return int64(n)
			}
			return uint64(n)
		}
		return leaf
	})
}
