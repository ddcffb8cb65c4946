package jsonvalue

import (
	"encoding/json"
	"strconv"
	"unicode/utf8"
)

// EncodedBound bounds the length of json.Marshal(v) for a decoded JSON
// value (maps, slices, strings, numbers, booleans, nil) without encoding
// it: a caller that only needs to know whether the encoding fits a limit
// is spared building it (encoding/json grows its buffer by doubling and
// copies a Marshaler's output once per level). It is exact but for
// floats, counted at their longest; a value of another type is encoded to
// be measured.
func EncodedBound(v any) int {
	switch x := v.(type) {
	case nil:
		return len("null")
	case bool:
		if x {
			return len("true")
		}
		return len("false")
	case string:
		return StringBound(x)
	case int:
		var buf [24]byte
		return len(strconv.AppendInt(buf[:0], int64(x), 10))
	case uint64: // a YAML whole number (YAMLInts)
		var buf [24]byte
		return len(strconv.AppendUint(buf[:0], x, 10))
	case float64:
		return len("-1.2345678901234567e-308")
	case map[string]any:
		n := 2 + max(len(x)-1, 0) // braces, commas
		for k, e := range x {
			n += StringBound(k) + 1 + EncodedBound(e)
		}
		return n
	case []any:
		n := 2 + max(len(x)-1, 0)
		for _, e := range x {
			n += EncodedBound(e)
		}
		return n
	}
	b, _ := json.Marshal(v)
	return len(b)
}

// StringBound is the length of s quoted by json.Marshal: the quotes, a
// two-byte escape for a quote, a backslash, \b, \f, \n, \r and \t, six
// bytes (\u00XX, \ufffd, \u2028) for another control byte, HTML's <, >
// and &, a byte that is not UTF-8 and U+2028 and U+2029.
func StringBound(s string) int {
	n := len(s) + 2
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\' || c == '\b' || c == '\f' || c == '\n' || c == '\r' || c == '\t':
				n++
			case c < 0x20 || c == '<' || c == '>' || c == '&':
				n += 5
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			n += 5 // \ufffd for one byte
		case r == '\u2028' || r == '\u2029':
			n += 3 // \u2028 for three bytes
		}
		i += size
	}
	return n
}
