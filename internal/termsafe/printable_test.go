package termsafe

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestPrintable(t *testing.T) {
	for in, want := range map[string]string{
		"":                 "",
		"plain\nline\ttab": "plain\nline\ttab",
		"\x1b[31mred":      `\x1b[31mred`,
		"bell\x07":         `bell\x07`,
		"del\x7f":          `del\x7f`,
		"c1\u0085":         `c1\x85`,
		"ls\u2028ps\u2029": `ls\u2028ps\u2029`,
		"bidi\u202e":       `bidi\u202e`,
		"iso\u2066x\u2069": `iso\u2066x\u2069`,
		"été ✓":            "été ✓",
		"nbsp\u00a0":       "nbsp\u00a0",
	} {
		if got := Printable(in); got != want {
			t.Errorf("Printable(%q) = %q, want %q", in, got, want)
		}
	}
}

// Every rune either passes or is escaped, and nothing escaped survives.
func TestIsControlBoundaries(t *testing.T) {
	for _, c := range []rune{0x1f, 0x7f, 0x80, 0x9f, 0x2028, 0x2029, 0x202a, 0x202e, 0x2066, 0x2069} {
		if !isControl(c) {
			t.Errorf("IsControl(%U) = false", c)
		}
	}
	for _, c := range []rune{'\n', '\t', ' ', '~', 0xa0, 0x2027, 0x202f, 0x2065, 0x206a} {
		if isControl(c) {
			t.Errorf("IsControl(%U) = true", c)
		}
	}
}

func FuzzPrintable(f *testing.F) {
	f.Add("\x1b]0;title\x07 ok")
	f.Add("plain")
	f.Add("\u202eevil")
	f.Fuzz(func(t *testing.T, s string) {
		out := Printable(s)
		if strings.ContainsFunc(out, isControl) {
			t.Fatalf("Printable(%q) = %q still holds a control character", s, out)
		}
		if utf8.ValidString(s) && !strings.ContainsFunc(s, isControl) && out != s {
			t.Fatalf("clean %q changed to %q", s, out)
		}
	})
}
