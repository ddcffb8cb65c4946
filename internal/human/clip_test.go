package human

import (
	"testing"
	"unicode/utf8"
)

// TestClip: a cut never splits a rune, keeps at most n bytes, and is
// marked; a short enough string comes back as it is.
func TestClip(t *testing.T) {
	for _, tc := range []struct {
		s    string
		n    int
		want string
	}{
		{"abc", 3, "abc"},
		{"abcd", 3, "abc…"},
		{"aé", 2, "a…"}, // é is 2 bytes: cutting at 2 would split it
		{"日本", 4, "日…"}, // 日 and 本 are 3 bytes each
		{"日本", 2, "…"},  // no whole rune fits
		{"", 0, ""},
	} {
		got := Clip(tc.s, tc.n)
		if got != tc.want || !utf8.ValidString(got) {
			t.Errorf("Clip(%q, %d) = %q, want %q", tc.s, tc.n, got, tc.want)
		}
	}
}
