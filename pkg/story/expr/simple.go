package expr

import (
	"slices"
	"strings"
)

// SimpleTemplate reports whether s is a value template whose only tags
// are {{ root.name(.name)* }} paths over a guard root (world, slots, …),
// each optionally followed by ?? and another path or a quoted text, with
// ASCII names that are not expr-lang words, single spaces or none inside
// the braces: CompileTemplate always compiles it, so a linter may skip
// compiling it. false never means that s is wrong.
func SimpleTemplate(s string) bool {
	if len(s) > MaxTemplateBytes {
		return false
	}
	for {
		i := strings.Index(s, "{{")
		if i < 0 {
			return true
		}
		s = s[i+2:]
		j := 0
		for j < len(s) && s[j] == ' ' {
			j++
		}
		n := rootPath(s[j:])
		if n == 0 {
			return false
		}
		j += n
		// (?? path | ?? 'text')*
		for strings.HasPrefix(s[j:], " ?? ") {
			j += len(" ?? ")
			if n = rootPath(s[j:]); n == 0 {
				n = plainQuote(s[j:])
			}
			if n == 0 {
				return false
			}
			j += n
		}
		for j < len(s) && s[j] == ' ' {
			j++
		}
		if !strings.HasPrefix(s[j:], "}}") {
			return false
		}
		s = s[j+2:]
	}
}

// SimpleGuard reports whether src is a guard of the plainest forms, which
// CompileGuard always compiles: terms joined by && or ||, each
//
//	[! | not ]root.name(.name)*
//	root.name(.name)* (== | !=) literal
//	root.name(.name)* (< | <= | > | >=) digits
//
// where literal is 'text' or "text" (no backslash, quote or line break),
// true, false, nil or digits, and operators stand between single spaces.
// false never means that src is wrong.
func SimpleGuard(src string) bool {
	if len(src) > MaxExprBytes {
		return false
	}
	// terms joined by && or ||: each one is bool or of unknown type
	for {
		i := strings.Index(src, " && ")
		if j := strings.Index(src, " || "); j >= 0 && (i < 0 || j < i) {
			i = j
		}
		if i < 0 {
			return simpleTerm(src)
		}
		if !simpleTerm(src[:i]) {
			return false
		}
		src = src[i+len(" && "):]
	}
}

// simpleTerm is one term of SimpleGuard.
func simpleTerm(src string) bool {
	s := src
	negated := false
	if strings.HasPrefix(s, "!") {
		s, negated = s[1:], true
	} else if strings.HasPrefix(s, "not ") {
		s, negated = s[4:], true
	}
	n := rootPath(s)
	if n == 0 {
		return false
	}
	s = s[n:]
	if s == "" {
		return true
	}
	if negated {
		return false
	}
	for _, op := range []string{" == ", " != "} {
		if lit, ok := strings.CutPrefix(s, op); ok {
			return simpleLiteral(lit)
		}
	}
	for _, op := range []string{" <= ", " >= ", " < ", " > "} {
		if lit, ok := strings.CutPrefix(s, op); ok {
			return digits(lit)
		}
	}
	return false
}

// simpleLiteral: a quoted string with nothing to unescape, a bool, nil or
// an unsigned decimal integer.
func simpleLiteral(s string) bool {
	switch s {
	case "true", "false", "nil":
		return true
	}
	if len(s) >= 2 && (s[0] == '\'' || s[0] == '"') && s[len(s)-1] == s[0] {
		return !strings.ContainsAny(s[1:len(s)-1], "'\"\\\n\r`")
	}
	return digits(s)
}

// plainQuote returns the length of 'text' or "text" at the start of s,
// text holding no quote, backslash, brace or line break; 0 if none.
func plainQuote(s string) int {
	if len(s) < 2 || (s[0] != '\'' && s[0] != '"') {
		return 0
	}
	end := strings.IndexAny(s[1:], "'\"\\`{}\n\r")
	if end < 0 || s[1+end] != s[0] {
		return 0
	}
	return end + 2
}

// digits: 1 to 9 decimal digits (no sign, no leading zero but "0").
func digits(s string) bool {
	if len(s) == 0 || len(s) > 9 || (s[0] == '0' && len(s) > 1) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return true
}

// rootPath returns the length of the root.name(.name)* path at the start
// of s, or 0: the root is a guard root, every name an ASCII identifier
// that is no expr-lang word.
func rootPath(s string) int {
	n := exprName(s)
	if n == 0 || !rootSet[s[:n]] || n >= len(s) || s[n] != '.' {
		return 0
	}
	i := n
	for i < len(s) && s[i] == '.' {
		m := exprName(s[i+1:])
		if m == 0 {
			return 0
		}
		i += 1 + m
	}
	return i
}

// exprWords are the identifiers expr-lang reads as operators, literals or
// keywords.
var exprWords = []string{"not", "and", "or", "in", "matches", "contains", "startsWith", "endsWith", "true", "false", "nil", "let", "if", "else", "then"}

// exprName returns the length of the ASCII identifier at the start of s
// ([A-Za-z_][A-Za-z0-9_]*), or 0 when there is none or it is an expr-lang
// word.
func exprName(s string) int {
	if len(s) == 0 || !(s[0] == '_' || (s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z')) {
		return 0
	}
	n := 1
	for n < len(s) && (s[n] == '_' || isDigit(s[n]) || (s[n] >= 'a' && s[n] <= 'z') || (s[n] >= 'A' && s[n] <= 'Z')) {
		n++
	}
	if slices.Contains(exprWords, s[:n]) {
		return 0
	}
	return n
}
