package textwrap

import (
	"strings"
	"testing"
)

func TestWordWrap(t *testing.T) {
	for _, c := range []struct {
		in    string
		limit int
		want  string
	}{
		{"short", 80, "short"},
		{"aaa bbb ccc", 7, "aaa bbb\nccc"},
		{"aaa bbb ccc", 6, "aaa\nbbb\nccc"},
		// existing line breaks are kept
		{"one\ntwo three", 5, "one\ntwo\nthree"},
		// a hyphen is written but not counted (upstream quirk)
		{"ab-cd ef", 7, "ab-cd ef"},
		{"abcde ef", 7, "abcde\nef"},
		// a word wider than the limit gets a line of its own, never cut
		{"x averyveryverylongword y", 10, "x\naveryveryverylongword\ny"},
		{"averyveryverylongword", 10, "averyveryverylongword"},
		// wide runes count two cells
		{"日本 語", 4, "日本\n語"},
		// trailing spaces at the end are dropped
		{"a b   ", 10, "a b"},
		{"", 10, ""},
		// no limit: as is
		{"a b", 0, "a b"},
		// an escape sequence takes no cells, to its letter
		{"abcd \x1b[31mred\x1b[0m", 8, "abcd \x1b[31mred\x1b[0m"},
		// nor breaks at a space or hyphen inside it
		{"ab \x1b[ 1-2m cd", 5, "ab \x1b[ 1-2m\ncd"},
		// an OSC 8 link ends at its first letter: the rest is text
		{"\x1b]8;;file:///x\x1b\\", 8, "\x1b]8;;file:///x\x1b\\"},
		{"a \x1b]8;;file:///x\x1b\\", 8, "a\n\x1b]8;;file:///x\x1b\\"},
	} {
		if got := WordWrap(c.in, c.limit); got != c.want {
			t.Errorf("WordWrap(%q, %d) = %q, want %q", c.in, c.limit, got, c.want)
		}
	}
	if strings.Count(WordWrap(strings.Repeat("word ", 100), 80), "\n") != 6 {
		t.Error("500 cells of words at 80 should wrap to 7 lines")
	}
}

func TestWidth(t *testing.T) {
	for s, want := range map[string]int{
		"abc": 3, "日本": 4,
		"\x1b[31mred\x1b[0m": 3, "\x1b]8;;file:///x\x1b\\link\x1b]8;;\x1b\\": 4, // escapes: none
		"\x1b]0;t\x07abc": 3, "ab\x1bcd": 3, "q\x1b[ 12 3m zz": 8, "e\u0301": 1, "\u2061x\u2063": 1, "\t\x7f": 0,
		"\U0001F468\u200d\U0001F469\u200d\U0001F467": 2, // ZWJ family: one cluster
		"\U0001F44D\U0001F3FD":                       2, // skin tone
		"\u2764\ufe0f":                               2, // VS16 widens
		"\u2764":                                     1,
		"\u00e9\ufe0f":                               2,
		"\u231a\ufe0e":                               2, // VS15 does not narrow
		"\U0001F1EF\U0001F1F5":                       2, // flag
		"\U0001F1E6\U0001F1E7\U0001F1E8":             4, // a pair and a lone one
		"\u0600x":                                    0, // prepend mark: first rune's width
		"x\u0600":                                    1,
		"ab\u0903":                                   3, // ASCII byte alone, then the mark
		"\u00e9\u0903":                               1,
		"\u1100\u1161\u11a8":                         2,
		"\u2ffc\u31e4":                               4,
		"\ufe0f":                                     0,
		// Unicode 17 (conformance view-width-unicode17): an Indic conjunct is one
		// cluster (Devanagari, Khmer), Tamil's is not; newer wide runes
		"\u0915\u094d\u0937\u093f": 1, "\u1780\u17d2\u1780": 1, "\u0b95\u0bcd\u0bb7": 2,
		"\U0001FAC8": 2, "\u4dc0": 2, "\U0001D360": 2, "\U0002FFFE": 1,
		// U+FE0F widens right after the first rune only (conformance view-width-vs16)
		"\u00e9\u0301\ufe0f": 1, "\u0915\u094d\u0937\ufe0f": 1, "\u2764\ufe0e\ufe0f": 1,
		"\u0301\ufe0f": 2, "\u200d\ufe0f": 2, "\ufe0f\ufe0f": 2, "\u00ad\ufe0f": 0,
		"\u0085\u2028\u2029\ufffe\uffff": 0, "\u00ad\u200b\u2060": 0,
	} {
		if got := Width(s); got != want {
			t.Errorf("Width(%+q) = %d, want %d", s, got, want)
		}
	}
}

// TestWordWrapRuneCells: the wrap counts runes with go-runewidth's table,
// not grapheme clusters: a variation selector is a cell, a prepend mark too.
func TestWordWrapRuneCells(t *testing.T) {
	for word, cells := range map[string]int{"\u2764\ufe0f": 2, "\u0600": 1, "\u0e31": 1, "e\u0301": 1, "\u200d": 0, "\u6771": 2} {
		fits := strings.Repeat("a", 79-cells) + " " + word
		if got := WordWrap(fits, 80); strings.Contains(got, "\n") {
			t.Errorf("%+q (%d cells) after %d cells broke: %q", word, cells, 79-cells, got)
		}
		if got := WordWrap("a"+fits, 80); !strings.Contains(got, "\n") {
			t.Errorf("%+q (%d cells) after %d cells did not break", word, cells, 80-cells)
		}
	}
}

// A line ends inside an escape sequence while no ASCII letter follows its
// last ESC (conformance view-kv-escape-space).
func TestEndsInEscape(t *testing.T) {
	for _, c := range []struct {
		in   string
		want bool
	}{
		{"end\x1b ", true}, {"\x1b1234567 ", true}, {"a\x1b[1;2 ", true}, {"a\x1b\t", true}, {"\x1b", true},
		{"a\x1b[31m ", false}, {"a\x1b]8;;x ", false}, {"x ", false}, {"", false},
		{"\x1b[31m \x1b ", true}, {"\x1b \x1b[0m ", false},
	} {
		if got := EndsInEscape(c.in); got != c.want {
			t.Errorf("EndsInEscape(%q) = %v, want %v", c.in, got, c.want)
		}
	}
}
