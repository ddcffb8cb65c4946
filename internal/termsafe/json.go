package termsafe

import (
	"fmt"
	"unicode/utf8"
)

// JSON returns data, a JSON document, with every control character of
// [IsControl] that encoding/json leaves raw (DEL, C1 controls, the
// bidirectional controls) written as a \uXXXX escape: the same JSON
// value, which no terminal obeys when the document is printed. Such
// runes can only stand inside JSON strings, where the escape means the
// same rune. Clean data is returned as it is.
func JSON(data []byte) []byte {
	clean := true
	for i := 0; i < len(data); {
		c, n := utf8.DecodeRune(data[i:])
		if jsonRaw(c) {
			clean = false
			break
		}
		i += n
	}
	if clean {
		return data
	}
	out := make([]byte, 0, len(data)+16)
	for i := 0; i < len(data); {
		c, n := utf8.DecodeRune(data[i:])
		if jsonRaw(c) {
			out = fmt.Appendf(out, `\u%04x`, c)
		} else {
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
