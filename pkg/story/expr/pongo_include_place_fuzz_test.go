package expr

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzLiteralIncludeTags: every tag literalIncludeTags reports names, in
// order, a target LiteralIncludes lists, and its line and column (runes)
// point at the tag's "{%" in src.
func FuzzLiteralIncludeTags(f *testing.F) {
	for _, s := range []string{
		"{% include \"a.pongo\" %}",
		"one\n  é {%- include 'b' %}\n{% extends \"c\" %}{% import \"d\" x %}",
		"{% include \"\" %}{% include world.x %}\r\n\t{%include'e'%}",
		"ü\n\n{{ x }}{% include \"a\\\"b\" %}",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		tags := literalIncludeTags("f", src)
		var names []string
		lines := strings.Split(src, "\n")
		for _, k := range tags {
			names = append(names, k.name)
			if k.line < 1 || k.line > len(lines) || k.col < 1 {
				t.Fatalf("tag %+v is not in src %q", k, src)
			}
			text := lines[k.line-1]
			off := 0
			for range k.col - 1 {
				if off >= len(text) {
					t.Fatalf("tag %+v: column past its line %q", k, text)
				}
				_, n := utf8.DecodeRuneInString(text[off:])
				off += n
			}
			if !strings.HasPrefix(text[off:], "{%") {
				t.Fatalf("tag %+v points at %q, not at its tag", k, text[off:])
			}
		}
		if want := LiteralIncludes(src); !slices.Equal(names, want) {
			t.Fatalf("names %q, LiteralIncludes %q", names, want)
		}
	})
}
