package story

import (
	"path/filepath"
	"testing"
)

// A quoted directory name matches itself alone: its *, ? and [ are
// characters, not a pattern.
func TestQuoteGlob(t *testing.T) {
	for _, c := range []struct{ name, other string }{
		{"a[1]", "a1"},
		{"x*", "xyz"},
		{"q?", "qa"},
		{"[", "x"},
		{"plain", "plaim"},
	} {
		q := QuoteGlob(c.name)
		if ok, err := filepath.Match(q, c.name); !ok || err != nil {
			t.Errorf("QuoteGlob(%q) = %q does not match itself (%v)", c.name, q, err)
		}
		if ok, _ := filepath.Match(q, c.other); ok {
			t.Errorf("QuoteGlob(%q) = %q matches %q too", c.name, q, c.other)
		}
	}
	if filepath.Separator != '\\' {
		if ok, _ := filepath.Match(QuoteGlob(`b\c`), `b\c`); !ok {
			t.Errorf(`QuoteGlob("b\\c") = %q does not match itself`, QuoteGlob(`b\c`))
		}
	}
}
