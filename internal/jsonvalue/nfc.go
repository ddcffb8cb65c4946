package jsonvalue

import (
	"encoding/json"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// FirstNonNFC is the first string of v's JSON encoding, map keys included,
// that is not in Unicode normal form C, and whether there is one: upstream's
// event log refuses a payload holding such a string. v is encoded first,
// so typed maps, slices and structs are read as their JSON; a value that
// does not encode holds none.
func FirstNonNFC(v any) (string, bool) {
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
	}
	return "", false
}
