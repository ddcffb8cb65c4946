package lint

import (
	"strings"
	"testing"

	"kitsoki/pkg/story"
)

// valuePos never panics and never points outside the file.
func FuzzValuePos(f *testing.F) {
	f.Add("a: \"x\\ty\"\n", 1, 4, "x\ty", 1, 2)
	f.Add("d: |\n  one\n  two\n", 1, 4, "one\ntwo\n", 2, 3)
	f.Add("e: >-\n  a\n\n  b\n", 1, 4, "a\nb", 2, 1)
	f.Add("f: 'it''s'\n", 1, 5, "it's", 1, 3)
	f.Fuzz(func(t *testing.T, src string, line, col int, val string, vl, vc int) {
		l := fileSources("f", src)
		p := l.valuePos(story.Pos{File: "f", Line: line, Col: col}, val, vl, vc)
		lines := strings.Split(src, "\n")
		if p.Line == line && p.Col == col {
			return // unmapped: the scalar's own position
		}
		if p.Line < 1 || p.Line > len(lines) || p.Col < 1 || p.Col > len([]rune(lines[p.Line-1]))+1 {
			t.Fatalf("position %d:%d outside the file", p.Line, p.Col)
		}
	})
}
