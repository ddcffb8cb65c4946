package jsonvalue

import (
	"encoding/json"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// FirstNonNFC is the first string of v's JSON encoding, map keys included,
// that is not in Unicode normal form C, and whether there is one: upstream's
// event log refuses a payload holding such a string. A JSON model (what
// encoding/json decodes into any) is walked as it is; any other value
// (typed maps, slices, structs) is read as its JSON encoding, and one that
// does not encode holds none.
func FirstNonNFC(v any) (string, bool) {
	return firstNonNFC(v)
}

// encodedNonNFC is FirstNonNFC of a value that is no JSON model: its
// encoding, decoded, unless the encoding is plain ASCII.
func encodedNonNFC(v any) (string, bool) {
	b, err := json.Marshal(v)
	if err != nil || asciiOnly(b) {
		return "", false
	}
	var d any
	if json.Unmarshal(b, &d) != nil {
		return "", false
	}
	return firstNonNFC(d)
}

// asciiOnly tells that b holds no byte past ASCII and no \u escape, so
// every string in it is already NFC.
func asciiOnly(b []byte) bool {
	for i, c := range b {
		if c >= utf8.RuneSelf || c == '\\' && i+1 < len(b) && b[i+1] == 'u' {
			return false
		}
	}
	return true
}

func firstNonNFC(v any) (string, bool) {
	switch x := v.(type) {
	case string:
		return x, !norm.NFC.IsNormalString(x)
	case map[string]any:
		for k, e := range x {
			if !norm.NFC.IsNormalString(k) {
				return k, true
			}
			if s, ok := firstNonNFC(e); ok {
				return s, true
			}
		}
	case []any:
		for _, e := range x {
			if s, ok := firstNonNFC(e); ok {
				return s, true
			}
		}
	case nil, bool, int, int64, float64, json.Number:
	default:
		return encodedNonNFC(x)
	}
	return "", false
}
