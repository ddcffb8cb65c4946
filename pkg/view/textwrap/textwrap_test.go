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
	} {
		if got := WordWrap(c.in, c.limit); got != c.want {
			t.Errorf("WordWrap(%q, %d) = %q, want %q", c.in, c.limit, got, c.want)
		}
	}
	if strings.Count(WordWrap(strings.Repeat("word ", 100), 80), "\n") != 6 {
		t.Error("500 cells of words at 80 should wrap to 7 lines")
	}
}

func TestRuneWidth(t *testing.T) {
	for r, want := range map[rune]int{'a': 1, '日': 2, '\t': 0, '\u0301': 0, 'Ａ': 2} {
		if got := RuneWidth(r); got != want {
			t.Errorf("RuneWidth(%q) = %d, want %d", r, got, want)
		}
	}
}
