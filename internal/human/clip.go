package human

import "unicode/utf8"

// Clip is s cut to at most n bytes on a rune boundary, "…" marking the
// cut; s itself when it is that short.
func Clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:RuneCut(s, n)] + "…"
}

// RuneCut is the largest index at most n (0 ≤ n < len(s)) at which s can
// be cut without splitting a rune.
func RuneCut(s string, n int) int {
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return n
}
