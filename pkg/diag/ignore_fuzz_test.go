package diag

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// findMarkers never panics and every marker points inside its line.
func FuzzFindMarkers(f *testing.F) {
	for _, s := range []string{
		"a: 1 # kitsoki:ignore r1\n",
		"# kitsoki:ignore r2, r3\nb: 2\n",
		"c: 3 #kitsoki:ignore\n",
		"x: \"# kitsoki:ignore\" # kitsoki:ignore a,,b\t c\r\n",
		"🎉: 1 # kitsoki:ignore ünï\n",
		"# kitsoki:ignore r\n- v: >-\n    x\n\n  y: |\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		lines := strings.Split(src, "\n")
		for _, m := range findMarkers("f", []byte(src)) {
			if m.Line < 1 || m.Line > len(lines) || m.Covers < m.Line || m.Covers > m.Line+1 {
				t.Fatalf("bad marker %+v", m)
			}
			if m.Through < m.Covers || m.Through > max(len(lines), m.Covers) {
				t.Fatalf("marker covers through line %d: %+v", m.Through, m)
			}
			n := utf8.RuneCountInString(lines[m.Line-1])
			if m.Col < 1 || m.Col > n {
				t.Fatalf("marker column %d outside line of %d runes", m.Col, n)
			}
			for i, c := range m.RuleCols {
				if c < 1 || c > n || m.Rules[i] == "" {
					t.Fatalf("rule %q at %d outside line", m.Rules[i], c)
				}
			}
		}
	})
}
