package expr

import (
	"slices"
	"strings"

	"github.com/flosch/pongo2/v6"
)

// SimplePongo reports whether src is text whose only tags are of the
// plainest forms, which pongo2 always compiles (a linter checking
// thousands of {{ world.x }} strings may skip compiling them):
//
//	{{ name(.name)*(|filter(:"text")?)* }}    {{ "text"|filter }}
//	{% if cond %} {% elif cond %} {% else %} {% endif %}
//	{% for name in name(.name)* %} {% empty %} {% endfor %}
//
// properly nested, where cond is [not ]name(.name)* or name(.name)*
// (== | !=) literal, a literal is "text", 'text', digits, true or false,
// names are ASCII and not pongo2 keywords, filters exist, quoted text
// holds no backslash, quote or line break, and single spaces (none
// inside {{ }} is fine too) separate the parts. Anything else ({# #}
// comments, other tags, subscripts, operators, {%- -%}, a U+0001) is
// left to pongo2: false never means that src is wrong.
func SimplePongo(src string) bool {
	// pongo2's lexer reads the rune U+0001 as its end of input.
	if len(src) > MaxTemplateBytes || strings.Contains(src, "{#") || strings.IndexByte(src, 1) >= 0 {
		return false
	}
	var open []byte // the blocks open: 'i' if, 'I' if after else, 'f' for, 'F' for after empty
	for {
		i := strings.Index(src, "{")
		for i >= 0 && i+1 < len(src) && src[i+1] != '{' && src[i+1] != '%' {
			j := strings.Index(src[i+1:], "{")
			if j < 0 {
				i = -1
				break
			}
			i += 1 + j
		}
		if i < 0 || i+1 >= len(src) {
			return len(open) == 0
		}
		var n int
		if src[i+1] == '{' {
			n = simpleVarTag(src[i+2:])
		} else {
			n, open = simpleBlockTag(src[i+2:], open)
		}
		if n < 0 {
			return false
		}
		src = src[i+2+n:]
	}
}

// maxSimpleDepth bounds the nesting SimplePongo follows.
const maxSimpleDepth = 16

// simpleBlockTag reads the rest of a block tag (after "{%") against the
// blocks open; it returns the tag's length up to and including "%}" and
// the blocks then open, or -1.
func simpleBlockTag(s string, open []byte) (int, []byte) {
	if !strings.HasPrefix(s, " ") {
		return -1, open
	}
	i := 1
	word := pongoName(s[i:])
	if word == 0 {
		// keywords are no tag names; else/endif/... are plain names
		return -1, open
	}
	name := s[i : i+word]
	i += word
	top := byte(0)
	if len(open) > 0 {
		top = open[len(open)-1]
	}
	switch name {
	case "if", "elif":
		if name == "elif" && top != 'i' {
			return -1, open
		}
		if !strings.HasPrefix(s[i:], " ") {
			return -1, open
		}
		n := simpleCond(s[i+1:])
		if n < 0 {
			return -1, open
		}
		i += 1 + n
		if name == "if" {
			if len(open) >= maxSimpleDepth {
				return -1, open
			}
			open = append(open, 'i')
		}
	case "else":
		if top != 'i' {
			return -1, open
		}
		open[len(open)-1] = 'I'
	case "endif":
		if top != 'i' && top != 'I' {
			return -1, open
		}
		open = open[:len(open)-1]
	case "for":
		// for name in path
		if !strings.HasPrefix(s[i:], " ") {
			return -1, open
		}
		i++
		n := pongoName(s[i:])
		if n == 0 || !strings.HasPrefix(s[i+n:], " in ") {
			return -1, open
		}
		i += n + len(" in ")
		if n = pongoPath(s[i:]); n == 0 {
			return -1, open
		}
		i += n
		if len(open) >= maxSimpleDepth {
			return -1, open
		}
		open = append(open, 'f')
	case "empty":
		if top != 'f' {
			return -1, open
		}
		open[len(open)-1] = 'F'
	case "endfor":
		if top != 'f' && top != 'F' {
			return -1, open
		}
		open = open[:len(open)-1]
	default:
		return -1, open
	}
	if !strings.HasPrefix(s[i:], " %}") {
		return -1, open
	}
	return i + 3, open
}

// simpleCond returns the length of a condition at the start of s:
// [not ]path, or path (== | !=) literal.
func simpleCond(s string) int {
	if strings.HasPrefix(s, "not ") {
		n := pongoPath(s[4:])
		if n == 0 {
			return -1
		}
		return 4 + n
	}
	n := pongoPath(s)
	if n == 0 {
		return -1
	}
	for _, op := range []string{" == ", " != "} {
		if strings.HasPrefix(s[n:], op) {
			m := pongoLiteral(s[n+len(op):])
			if m == 0 {
				return -1
			}
			return n + len(op) + m
		}
	}
	return n
}

// pongoPath returns the length of name(.name)* at the start of s, or 0.
func pongoPath(s string) int {
	i := 0
	for {
		n := pongoName(s[i:])
		if n == 0 {
			return 0
		}
		i += n
		if i < len(s) && s[i] == '.' {
			i++
			continue
		}
		return i
	}
}

// pongoLiteral returns the length of a literal at the start of s: quoted
// text (quoteLen), 1 to 9 digits, true or false; 0 if there is none.
func pongoLiteral(s string) int {
	if n := quoteLen(s); n > 0 {
		return n
	}
	for _, w := range []string{"true", "false"} {
		if strings.HasPrefix(s, w) && (len(s) == len(w) || !isPongoIdent(s[len(w)])) {
			return len(w)
		}
	}
	n := 0
	for n < len(s) && n < 10 && isDigit(s[n]) {
		n++
	}
	if n == 0 || n > 9 || (n < len(s) && isPongoIdent(s[n])) || (s[0] == '0' && n > 1) {
		return 0
	}
	return n
}

// quoteLen returns the length of "text" or 'text' at the start of s
// (text without backslash, quote or line break), or 0.
func quoteLen(s string) int {
	if len(s) == 0 || (s[0] != '"' && s[0] != '\'') {
		return 0
	}
	end := strings.IndexAny(s[1:], "\"'\\\n\r")
	if end < 0 || s[1+end] != s[0] {
		return 0
	}
	return end + 2
}

// simpleVarTag reads the rest of a simple variable tag (after "{{") and
// returns its length up to and including "}}", or -1.
func simpleVarTag(s string) int {
	i := 0
	for i < len(s) && s[i] == ' ' {
		i++
	}
	// name(.name)* or a quoted text
	if n := quoteLen(s[i:]); n > 0 {
		i += n
	} else if n := pongoPath(s[i:]); n > 0 {
		i += n
	} else {
		return -1
	}
	// (|filter(:literal)?)*
	for i < len(s) && s[i] == '|' {
		i++
		n := pongoName(s[i:])
		if n == 0 || !pongo2.FilterExists(s[i:i+n]) {
			return -1
		}
		i += n
		if i < len(s) && s[i] == ':' {
			i++
			m := quoteLen(s[i:])
			if m == 0 {
				return -1
			}
			i += m
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
