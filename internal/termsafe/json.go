package termsafe

import (
	"fmt"
	"unicode/utf16"
	"unicode/utf8"
)

// JSON returns data, a JSON document, with every control character of
// [IsControl] that encoding/json leaves raw (DEL, C1 controls, the
// bidirectional controls) written as a \uXXXX escape: the same JSON
// value, which no terminal obeys when the document is printed. Such
// runes can only stand inside JSON strings, where the escape means the
// same rune. The first '#' of every "##[" and "##vso[" (a workflow
// command a CI runner obeys anywhere in a line) is written \u0023 for
// the same reason: valid JSON holds '#' only inside strings. Clean data
// is returned as it is.
func JSON(data []byte) []byte {
	clean := markerIndex(string(data)) < 0
	for i := 0; clean && i < len(data); {
		c, n := utf8.DecodeRune(data[i:])
		if jsonRaw(c) {
			clean = false
		}
		i += n
	}
	if clean {
		return data
	}
	out := make([]byte, 0, len(data)+16)
	for i := 0; i < len(data); {
		c, n := utf8.DecodeRune(data[i:])
		switch {
		case jsonRaw(c) && c > 0xffff: // JSON spells it as a UTF-16 surrogate pair
			r1, r2 := utf16.EncodeRune(c)
			out = fmt.Appendf(out, `\u%04x\u%04x`, r1, r2)
		case jsonRaw(c):
			out = fmt.Appendf(out, `\u%04x`, c)
		case c == '#' && markerIndex(string(data[i:min(i+len("##teamcity["), len(data))])) == 0:
			out = append(out, `\u0023`...)
		default:
			out = append(out, data[i:i+n]...)
		}
		i += n
	}
	return out
}

// jsonRaw reports whether c is a control character valid JSON may hold
// raw: C0 controls cannot stand raw inside a string, and outside one only
// white space can, which stays.
func jsonRaw(c rune) bool { return c >= 0x7f && IsControl(c) }
