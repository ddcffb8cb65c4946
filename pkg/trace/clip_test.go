package trace

import (
	"strings"
	"testing"
)

// clipWhole is clip as it was written first: the whole value turned into
// runes. The bounded clip must say exactly what it said.
func clipWhole(s string, n int) string {
	s = strings.ReplaceAll(s, "\r\n", "⏎")
	s = strings.ReplaceAll(s, "\n", "⏎")
	r := []rune(s)
	if len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

func FuzzClip(f *testing.F) {
	for _, s := range []string{"", "abc", "a\r\nb\nc", "\r\r\n\n", "é\xffx", strings.Repeat("ab\n", 50), "\r"} {
		f.Add(s, 3)
		f.Add(s, 0)
	}
	f.Fuzz(func(t *testing.T, s string, n int) {
		if n < 0 || n > 1000 {
			return
		}
		if got, want := clip(s, n), clipWhole(s, n); got != want {
			t.Fatalf("clip(%q, %d) = %q, want %q", s, n, got, want)
		}
	})
}
