package lint

import (
	"testing"

	"kitsoki/pkg/story"
)

// valuePos maps a position inside a scalar's value to the file through
// every scalar style.
func TestValuePosScalarStyles(t *testing.T) {
	src := "a: plain value x\n" + // 1
		"b: \"q\\tx y\"\n" + // 2: escape before x
		"c: 'it''s x'\n" + // 3
		"d: |\n  one\n  two x\n" + // 4-6
		"e: >-\n  folded\n  line x\n" + // 7-9
		"f: \"🎉 x\"\n" // 10
	l := fileSources("f", src)
	for _, tc := range []struct {
		p         story.Pos
		val       string
		line, col int
		want      string
	}{
		{story.Pos{File: "f", Line: 1, Col: 4}, "plain value x", 1, 13, "f:1:16"},
		{story.Pos{File: "f", Line: 2, Col: 5}, "q\tx y", 1, 3, "f:2:8"},
		{story.Pos{File: "f", Line: 3, Col: 5}, "it's x", 1, 6, "f:3:11"},
		{story.Pos{File: "f", Line: 4, Col: 4}, "one\ntwo x\n", 2, 5, "f:6:7"},
		{story.Pos{File: "f", Line: 7, Col: 4}, "folded line x", 1, 13, "f:9:8"},
		{story.Pos{File: "f", Line: 10, Col: 5}, "🎉 x", 1, 3, "f:10:7"},
	} {
		got := l.valuePos(tc.p, tc.val, tc.line, tc.col)
		if s := got.File + ":" + itoa(got.Line) + ":" + itoa(got.Col); s != tc.want {
			t.Errorf("%q at %d:%d -> %s, want %s", tc.val, tc.line, tc.col, s, tc.want)
		}
	}
	// A value that does not match its source falls back to the scalar.
	if got := l.valuePos(story.Pos{File: "f", Line: 1, Col: 4}, "other", 1, 2); got.Col != 4 {
		t.Errorf("mismatch not detected: %+v", got)
	}
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	s := ""
	for ; n > 0; n /= 10 {
		s = string(rune('0'+n%10)) + s
	}
	return s
}

// fileSources holds one file, name, with the text src.
func fileSources(name, src string) *sources {
	return &sources{read: func(f string) ([]byte, bool) {
		if f != name {
			return nil, false
		}
		return []byte(src), true
	}}
}
