package expr

import (
	"fmt"
	"strings"

	"github.com/expr-lang/expr/file"
	"github.com/expr-lang/expr/parser/lexer"

	"kitsoki/internal/recost"
)

// Limits on guard and template text, checked before any parser sees it:
// the parsers recurse per nesting level and some are quadratic, so a
// hostile source would keep validate and lsp busy for minutes. Real
// sources stay far below (docs/compat/hardening.md).
const (
	// MaxExprBytes bounds a guard or value expression.
	MaxExprBytes = 16 << 10
	// MaxTemplateBytes bounds a {{ }} value template or a pongo2 source.
	MaxTemplateBytes = 1 << 20
	// MaxNesting bounds nested brackets in an expression and block tags.
	MaxNesting = 64
)

// limitError is the error of a source over a limit at byte offset off.
func limitError(kind ErrorKind, what, src string, off int, format string, a ...any) *Error {
	line, col := runeCol(src, off)
	return &Error{
		Kind: kind,
		Msg:  fmt.Sprintf("%s %s at %d:%d: %s", what, Quote(src), line, col, fmt.Sprintf(format, a...)),
		Src:  src, Line: line, Col: col,
	}
}

// Quote is %q of s, cut to 256 runes and "…" so a huge source is not repeated.
func Quote(s string) string {
	const n = 256
	if i := byteOffset(s, n); i < len(s) {
		return fmt.Sprintf("%q…", s[:i])
	}
	return fmt.Sprintf("%q", s)
}

// checkExprLimits refuses an expression too long or nested too deep.
func checkExprLimits(src string) *Error {
	const what = "expr compile"
	if len(src) > MaxExprBytes {
		return limitError(KindCompile, what, src, MaxExprBytes,
			"the expression is %d bytes, over the limit of %d; move the logic into smaller guards or into values computed by an effect", len(src), MaxExprBytes)
	}
	if off := nestingOverflow(src, 0, len(src)); off >= 0 {
		return limitError(KindCompile, what, src, off,
			"brackets nest deeper than %d levels; split the expression", MaxNesting)
	}
	return costlyMatches(src)
}

// costlyMatches refuses a `matches` whose literal pattern would compile
// past recost's bound: expr-lang compiles it while checking the
// expression, before kitsoki sees the tree. Only the lexer reads src here.
func costlyMatches(src string) *Error {
	if !strings.Contains(src, "matches") {
		return nil
	}
	toks, err := lexer.Lex(file.NewSource(src))
	if err != nil {
		return nil // the parser's error
	}
	for i, t := range toks {
		if t.Kind != lexer.Operator || t.Value != "matches" {
			continue
		}
		j := i + 1
		for j < len(toks) && toks[j].Kind == lexer.Bracket && toks[j].Value == "(" {
			j++
		}
		if j < len(toks) && toks[j].Kind == lexer.String {
			if err := recost.Sized(toks[j].Value); err != nil {
				return limitError(KindCompile, "expr compile", src, byteOffset(src, toks[j].From), "matches: %v", err)
			}
		}
	}
	return nil
}

// nestingOverflow returns the offset in src[from:to] of the first bracket
// that opens level MaxNesting+1, or -1; quoted strings are skipped.
func nestingOverflow(src string, from, to int) int {
	depth := 0
	var quote byte
	for i := from; i < to; i++ {
		c := src[i]
		if quote != 0 {
			if c == '\\' && quote != '`' {
				i++
			} else if c == quote {
				quote = 0
			}
			continue
		}
		switch c {
		case '"', '\'', '`':
			quote = c
		case '(', '[', '{':
			depth++
			if depth > MaxNesting {
				return i
			}
		case ')', ']', '}':
			if depth > 0 {
				depth--
			}
		}
	}
	return -1
}

// checkTemplateLength refuses a template longer than MaxTemplateBytes.
func checkTemplateLength(kind ErrorKind, what, src string) *Error {
	if len(src) <= MaxTemplateBytes {
		return nil
	}
	return limitError(kind, what, src, MaxTemplateBytes,
		"the template is %d bytes, over the limit of %d; split it with {%% include %%} or move text into files", len(src), MaxTemplateBytes)
}

// pongoBlockTags are the pongo2 tags that open a block closed by end<tag>.
var pongoBlockTags = map[string]bool{
	"for": true, "if": true, "ifequal": true, "ifnotequal": true, "ifchanged": true,
	"block": true, "macro": true, "with": true, "filter": true, "spaceless": true,
	"autoescape": true, "comment": true,
}

// checkPongoLimits refuses a pongo2 source too long, nested too deep (block
// tags, or brackets inside one tag), or that would hang pongo2.
func checkPongoLimits(name, src string) *Error {
	what := "pongo2 " + name
	if e := checkTemplateLength(KindPongo, what, src); e != nil {
		return e
	}
	depth := 0
	for i := 0; i < len(src); {
		open, close := nextTag(src, i)
		if open < 0 {
			break
		}
		end := strings.Index(src[open+2:], close)
		if end < 0 {
			end = len(src)
		} else {
			end += open + 2
		}
		if off := nestingOverflow(src, open+2, end); off >= 0 {
			return limitError(KindPongo, what, src, off, "brackets nest deeper than %d levels inside one tag; split the expression with {%% set %%}", MaxNesting)
		}
		if close == "%}" {
			tag := strings.TrimLeft(src[open+2:end], "- \t\r\n")
			tag = tag[:len(tag)-len(strings.TrimLeft(tag, pongoIdentBytes))]
			switch {
			case pongoBlockTags[tag]:
				depth++
				if depth > MaxNesting {
					return limitError(KindPongo, what, src, open, "block tags nest deeper than %d levels; move the inner part into an {%% include %%}d file or a macro", MaxNesting)
				}
			case strings.HasPrefix(tag, "end") && pongoBlockTags[tag[3:]] && depth > 0:
				depth--
			}
		}
		i = end + 2
	}
	return checkPongoHang(name, src)
}

// pongoIdentBytes are the bytes of a pongo2 tag name.
const pongoIdentBytes = "_0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
