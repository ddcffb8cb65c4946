package termsafe

import (
	"fmt"
	"strings"
)

// Printable returns s with every control character of [isControl] escaped
// as \xNN (below U+0100) or \uNNNN; newlines and tabs stay. Clean text is
// returned as it is, without copying.
func Printable(s string) string {
	if !strings.ContainsFunc(s, isControl) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for _, c := range s {
		switch {
		case !isControl(c):
			b.WriteRune(c)
		case c < 0x100:
			fmt.Fprintf(&b, "\\x%02x", c)
		default:
			fmt.Fprintf(&b, "\\u%04x", c)
		}
	}
	return b.String()
}

// isControl reports whether c must not reach a terminal raw: a C0 control
// other than newline and tab, DEL, a C1 control, U+2028/U+2029, or a
// bidirectional embedding, override or isolate control.
func isControl(c rune) bool {
	return (c < 0x20 && c != '\n' && c != '\t') ||
		c == 0x7f ||
		(c >= 0x80 && c < 0xa0) ||
		c == 0x2028 || c == 0x2029 ||
		(c >= 0x202a && c <= 0x202e) ||
		(c >= 0x2066 && c <= 0x2069)
}
