package schema

import (
	"fmt"
	"strconv"
	"strings"
)

// jsonType is a JSON Schema type as a bit, so a "type" keyword is a mask.
type jsonType uint8

const (
	tNull jsonType = 1 << iota
	tBoolean
	tNumber
	tInteger
	tString
	tArray
	tObject
)

// typeOrder is the order type names appear in messages.
var typeOrder = [...]jsonType{tNull, tBoolean, tNumber, tInteger, tString, tArray, tObject}

func (t jsonType) String() string {
	switch t {
	case tNull:
		return "null"
	case tBoolean:
		return "boolean"
	case tNumber:
		return "number"
	case tInteger:
		return "integer"
	case tString:
		return "string"
	case tArray:
		return "array"
	case tObject:
		return "object"
	}
	return "invalid"
}

func typeNamed(s string) jsonType {
	for _, t := range typeOrder {
		if t.String() == s {
			return t
		}
	}
	return 0
}

// names lists the types of a mask in message order.
func (t jsonType) names() []string {
	var out []string
	for _, b := range typeOrder {
		if t&b != 0 {
			out = append(out, b.String())
		}
	}
	return out
}

// typeOf classifies a decoded JSON value; 0 when v is not JSON (a Go
// value json.Unmarshal never produces, NaN or ±Inf).
func typeOf(v any) jsonType {
	switch v.(type) {
	case nil:
		return tNull
	case bool:
		return tBoolean
	case string:
		return tString
	case []any:
		return tArray
	case map[string]any:
		return tObject
	}
	if _, ok := toDecimal(v); ok {
		return tNumber
	}
	return 0
}

// equalJSON is JSON equality: numbers by value (1 == 1.0), objects
// regardless of key order.
func equalJSON(a, b any) bool {
	ta, tb := typeOf(a), typeOf(b)
	if ta != tb || ta == 0 {
		return false
	}
	switch x := a.(type) {
	case nil:
		return true
	case bool:
		return x == b.(bool)
	case string:
		return x == b.(string)
	case []any:
		y := b.([]any)
		if len(x) != len(y) {
			return false
		}
		for i := range x {
			if !equalJSON(x[i], y[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		y := b.(map[string]any)
		if len(x) != len(y) {
			return false
		}
		for k, xv := range x {
			yv, ok := y[k]
			if !ok || !equalJSON(xv, yv) {
				return false
			}
		}
		return true
	}
	da, _ := toDecimal(a)
	db, _ := toDecimal(b)
	return da.cmp(db) == 0
}

// canonicalKey writes a text that is equal for JSON-equal values.
func canonicalKey(sb *strings.Builder, v any) {
	switch x := v.(type) {
	case nil:
		sb.WriteByte('n')
	case bool:
		if x {
			sb.WriteByte('t')
		} else {
			sb.WriteByte('f')
		}
	case string:
		sb.WriteString(strconv.Quote(x))
	case []any:
		sb.WriteByte('[')
		for _, e := range x {
			canonicalKey(sb, e)
			sb.WriteByte(',')
		}
		sb.WriteByte(']')
	case map[string]any:
		sb.WriteByte('{')
		for _, k := range sortedKeys(x) {
			sb.WriteString(strconv.Quote(k))
			sb.WriteByte(':')
			canonicalKey(sb, x[k])
			sb.WriteByte(',')
		}
		sb.WriteByte('}')
	default:
		if d, ok := toDecimal(v); ok {
			sb.WriteByte('#')
			sb.WriteString(d.canonical())
		} else {
			fmt.Fprintf(sb, "?%T", v)
		}
	}
}

// firstDuplicate returns the indexes (i < j) of the first pair of equal
// items, or -1, -1.
func firstDuplicate(arr []any) (int, int) {
	if len(arr) < 2 {
		return -1, -1
	}
	if len(arr) <= 16 {
		for j := 1; j < len(arr); j++ {
			for i := 0; i < j; i++ {
				if equalJSON(arr[i], arr[j]) {
					return i, j
				}
			}
		}
		return -1, -1
	}
	seen := make(map[string]int, len(arr))
	var sb strings.Builder
	for j, e := range arr {
		sb.Reset()
		canonicalKey(&sb, e)
		if i, ok := seen[sb.String()]; ok {
			return i, j
		}
		seen[sb.String()] = j
	}
	return -1, -1
}
