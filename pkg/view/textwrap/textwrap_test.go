package textwrap

import "testing"

func TestWordWrap(t *testing.T) {
	for _, c := range []struct {
		in    string
		limit int
		want  string
	}{
		{"one two three", 7, "one two\nthree"},
		{"keep\nbreaks here", 20, "keep\nbreaks here"},
		{"averyveryverylongword x", 5, "averyveryverylongword\nx"}, // never cut
		{"日本語 日本語", 6, "日本語\n日本語"},                                 // two cells a rune
		{"trailing   ", 20, "trailing"},
		{"no limit", 0, "no limit"},
	} {
		if got := WordWrap(c.in, c.limit); got != c.want {
			t.Errorf("WordWrap(%q, %d) = %q, want %q", c.in, c.limit, got, c.want)
		}
	}
}

func TestRuneWidth(t *testing.T) {
	for r, want := range map[rune]int{'a': 1, '日': 2, '\t': 0, '\u0301': 0, 'Ａ': 2} {
		if got := RuneWidth(r); got != want {
			t.Errorf("RuneWidth(%q) = %d, want %d", r, got, want)
		}
	}
}
