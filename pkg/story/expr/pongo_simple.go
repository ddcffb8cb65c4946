package expr

import (
	"slices"
	"strings"

	"github.com/flosch/pongo2/v6"
)

// SimplePongo reports whether src is text whose only tags are variable
// tags of the plainest form, which pongo2 always compiles (a linter
// checking thousands of {{ world.x }} strings may skip compiling them):
//
//	{{ name(.name)*(|filter(:"text")?)* }}
//
// with ASCII names that are not pongo2 keywords, filters that exist,
// single spaces or none around the expression, and an argument quoted in
// double quotes holding no backslash, quote or line break. Anything else
// ({% %} tags, {# #} comments, subscripts, operators, numbers, other
// whitespace) is left to pongo2: false never means that src is wrong.
func SimplePongo(src string) bool {
	if strings.Contains(src, "{%") || strings.Contains(src, "{#") {
		return false
	}
	for {
		i := strings.Index(src, "{{")
		if i < 0 {
			return true
		}
		n := simpleVarTag(src[i+2:])
		if n < 0 {
			return false
		}
		src = src[i+2+n:]
	}
}

// simpleVarTag reads the rest of a simple variable tag (after "{{") and
// returns its length up to and including "}}", or -1.
func simpleVarTag(s string) int {
	i := 0
	for i < len(s) && s[i] == ' ' {
		i++
	}
	// name(.name)*
	for {
		n := pongoName(s[i:])
		if n == 0 {
			return -1
		}
		i += n
		if i < len(s) && s[i] == '.' {
			i++
			continue
		}
		break
	}
	// (|filter(:"text")?)*
	for i < len(s) && s[i] == '|' {
		i++
		n := pongoName(s[i:])
		if n == 0 || !pongo2.FilterExists(s[i:i+n]) {
			return -1
		}
		i += n
		if i < len(s) && s[i] == ':' {
			i++
			if i >= len(s) || s[i] != '"' {
				return -1
			}
			end := strings.IndexAny(s[i+1:], "\"\\\n\r")
			if end < 0 || s[i+1+end] != '"' {
				return -1
			}
			i += end + 2
		}
	}
	for i < len(s) && s[i] == ' ' {
		i++
	}
	if !strings.HasPrefix(s[i:], "}}") {
		return -1
	}
	return i + 2
}

// pongoName returns the length of the ASCII name at the start of s
// ([A-Za-z_][A-Za-z0-9_]*), or 0 when there is none or it is a pongo2
// keyword.
func pongoName(s string) int {
	if len(s) == 0 || !(s[0] == '_' || (s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z')) {
		return 0
	}
	n := 1
	for n < len(s) && isPongoIdent(s[n]) {
		n++
	}
	if slices.Contains(pongo2.TokenKeywords, s[:n]) {
		return 0
	}
	return n
}
