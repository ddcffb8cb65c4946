package view

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
	} {
		if got := wordWrap(c.in, c.limit); got != c.want {
			t.Errorf("wordWrap(%q, %d) = %q, want %q", c.in, c.limit, got, c.want)
		}
	}
	if got := wordWrap("a b", 0); got != "a b" {
		t.Errorf("limit 0: %q", got)
	}
}

func TestTextWidth(t *testing.T) {
	if textWidth("abc") != 3 || textWidth("日本") != 4 || textWidth("a\nabcd") != 4 || textWidth("é") != 1 || textWidth("e\u0301") != 1 || textWidth("\u2061x\u2063") != 1 {
		t.Error("textWidth")
	}
	if strings.Count(wordWrap(strings.Repeat("word ", 100), 80), "\n") != 6 {
		t.Error("500 cells of words at 80 should wrap to 7 lines")
	}
}
