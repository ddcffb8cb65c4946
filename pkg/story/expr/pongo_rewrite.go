package expr

import (
	"strings"

	"kitsoki/internal/lazyre"
)

// prepPongo is the source pongo2 parses: kitsoki's tags where pongo2 reads
// block tags, and `??` rewritten everywhere, as upstream does.
func prepPongo(src string) string {
	return outsideText(rewritePongo(src), func(s string) string {
		return rewriteFilters(rewriteIncludes(rewriteIncludeOnly(rewriteMacros(s))))
	})
}

// outsideText applies f to the stretches of src where pongo2 reads block
// tags: not {% verbatim %} text, {{ }} print tags or {# #} comments.
func outsideText(src string, f func(string) string) string {
	var b strings.Builder
	start := 0
	for i := 0; ; {
		at, n, opener := pongoSpan(src, i)
		if at < 0 {
			break
		}
		i = at + n
		if opener == "{%" {
			continue // a block tag: f's, passed over whole
		}
		b.WriteString(f(src[start:at]))
		b.WriteString(src[at:i])
		start = i
	}
	b.WriteString(f(src[start:]))
	return b.String()
}

// endAfter is the length of s through the first end (all of s if none).
func endAfter(s, end string) int {
	if k := strings.Index(s, end); k >= 0 {
		return k + len(end)
	}
	return len(s)
}

// tagEnd is the length of the tag s starts with, literals skipped (all if unclosed).
func tagEnd(s, end string) int {
	if i := outsideLiterals(s, 2, end); i >= 0 {
		return i + len(end)
	}
	return len(s)
}

// outsideLiterals is the offset of the first needle in s from from on
// outside the string literals ("…", '…', backslash escapes), or -1.
func outsideLiterals(s string, from int, needle string) int {
	var quote byte
	for i := from; i < len(s); i++ {
		switch c := s[i]; {
		case quote != 0:
			if c == '\\' {
				i++
			} else if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case strings.HasPrefix(s[i:], needle):
			return i
		}
	}
	return -1
}

// includeOnly is an include tag ending in `only` (group 2).
var includeOnly = &lazyre.Regexp{Expr: `(\{%-?\s*include\s(?:[^%"']|"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')*?\swith\s(?:[^%"']|"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')*?)(\sonly\s*-?%\})`}

// rewriteIncludeOnly passes the render budget on as one more with-pair of
// every include with `only`, which would otherwise leave it behind.
func rewriteIncludeOnly(src string) string {
	if !strings.Contains(src, "only") {
		return src
	}
	return includeOnly.Get().ReplaceAllString(src, "${1} "+budgetKey+"="+budgetKey+"${2}")
}

// rewritePongo rewrites `??` into `|default:` inside tags, outside string
// literals, with the spaces and tabs on either side of it:
// `{{ world.x ?? "none" }}` and `{{world.x??"none"}}` are both
// `{{ world.x|default:"none" }}`-like (upstream's rewrite, probed: it needs
// no spaces around `??`, and takes in neither newlines nor carriage returns).
func rewritePongo(src string) string {
	if !strings.Contains(src, coalesceOp) {
		return src
	}
	var b strings.Builder
	b.Grow(len(src) + 16)
	i := 0
	for i < len(src) {
		open, close := nextTag(src, i)
		if open < 0 {
			break
		}
		end := strings.Index(src[open+2:], close)
		if end < 0 {
			break // an unclosed tag is copied as it is
		}
		end += open + 2
		b.WriteString(src[i : open+2])
		b.WriteString(rewriteTagBody(src[open+2 : end]))
		i = end // the closing delimiter is copied with the next stretch
	}
	b.WriteString(src[i:])
	return b.String()
}

// coalesceOp is the operator rewritePongo turns into a default filter.
const coalesceOp = "??"

// nextTag returns the offset of the next "{{" or "{%" from i and its closer.
// It looks at each "{" once: searching for both openers from i each time
// reads a template of many prints and no "{%" to its end at every print.
func nextTag(s string, i int) (int, string) {
	for {
		j := strings.IndexByte(s[i:], '{')
		if j < 0 || i+j+1 >= len(s) {
			return -1, ""
		}
		i += j + 1
		switch s[i] {
		case '{':
			return i - 1, "}}"
		case '%':
			return i - 1, "%}"
		}
	}
}

// rewriteTagBody rewrites each `??` of a tag's body that is outside its
// string literals, the blanks (spaces, tabs) around it taken in.
func rewriteTagBody(body string) string {
	var b strings.Builder
	i := 0
	for {
		k := outsideLiterals(body, i, coalesceOp)
		if k < 0 {
			break
		}
		b.WriteString(strings.TrimRight(body[i:k], " \t"))
		b.WriteString("|default:")
		i = k + len(coalesceOp)
		for i < len(body) && (body[i] == ' ' || body[i] == '\t') {
			i++
		}
	}
	if i == 0 {
		return body
	}
	b.WriteString(body[i:])
	return b.String()
}

// unshiftIncludeCol maps a column on line of prepPongo(src) back to src:
// the tags rewriteIncludes and rewriteFilters add are not counted (a tag
// that took over a "-" trim added one byte less than its length).
func unshiftIncludeCol(src string, line, col int) int {
	if line < 1 || !strings.Contains(src, "include") && !strings.Contains(src, "filter") && !strings.Contains(src, "spaceless") {
		return col
	}
	lines := strings.Split(prepPongo(src), "\n")
	if line > len(lines) {
		return col
	}
	text, shift := lines[line-1], 0
	for _, m := range []struct {
		mark  string
		trims int
	}{
		{"{% " + includeEnterTag + " %}", 0}, {"{%- " + includeEnterTag + " %}", 0},
		{"{% " + includeLeaveTag + " %}", 0}, {"{% " + includeLeaveTag + " -%}", 0},
		{" " + budgetKey + "=" + budgetKey, 0},
		{"{% " + filterEnterTag + " %}", 0}, {"{% " + filterEnterTag + " -%}", 1},
		{"{% " + filterLeaveTag + " %}", 0}, {"{%- " + filterLeaveTag + " %}", 1},
	} {
		for i := 0; ; i += len(m.mark) {
			j := strings.Index(text[i:], m.mark)
			if j < 0 || i+j >= col-1 {
				break
			}
			i += j
			shift += len(m.mark) - m.trims
		}
	}
	return col - shift
}

// CoalesceRewritten is src with `??` rewritten as upstream does before
// pongo2 parses it (the text upstream's render errors quote).
func CoalesceRewritten(src string) string { return rewritePongo(src) }

// CoalesceInTag is the 1-based line and byte column of the first `??`
// that prepPongo rewrites in src (inside a {{ }} or {% %} tag, outside its
// string literals; not in a {# #} comment or {% verbatim %} text), or 0, 0.
// Upstream rewrites only the template text a story holds inline: in a file
// (a template_file, layout, include or import) pongo2 parses it as written
// and fails there.
func CoalesceInTag(src string) (line, col int) {
	if !strings.Contains(src, coalesceOp) {
		return 0, 0
	}
	for i := 0; ; {
		at, n, _ := nextPongoTag(src, i)
		if at < 0 {
			return 0, 0
		}
		if k := outsideLiterals(src[at+2:at+n], 0, coalesceOp); k >= 0 {
			at += 2 + k // the first '?'
			return 1 + strings.Count(src[:at], "\n"), at - strings.LastIndexByte(src[:at], '\n')
		}
		i = at + n
	}
}

// nextPongoTag finds the first {{ }} or {% %} tag of src at or after i
// that pongo2 reads as one (pongoSpan), passing over {% verbatim %} text
// and {# #} comments. It returns the tag's offset, its length and its
// closer, or -1.
func nextPongoTag(src string, i int) (at, n int, closer string) {
	for {
		at, n, opener := pongoSpan(src, i)
		switch opener {
		case "{{":
			return at, n, "}}"
		case "{%":
			return at, n, "%}"
		case "":
			return -1, 0, ""
		}
		i = at + n
	}
}

// pongoSpan finds the first span of src at or after i that pongo2 reads
// as a unit: a {% verbatim %} text, a {# #} comment, a {{ }} print tag or
// a {% %} block tag. It returns the span's offset, its length through its
// closer (string literals in a tag skipped; the rest of src when
// unclosed) and its opener ("{% verbatim %}", "{#", "{{" or "{%"), or -1.
func pongoSpan(src string, i int) (at, n int, opener string) {
	for i < len(src) {
		j := strings.IndexByte(src[i:], '{')
		if j < 0 {
			break
		}
		i += j
		rest := src[i:]
		switch {
		case strings.HasPrefix(rest, "{% verbatim %}"):
			return i, endAfter(rest, "{% endverbatim %}"), "{% verbatim %}"
		case strings.HasPrefix(rest, "{#"):
			return i, endAfter(rest, "#}"), "{#"
		case strings.HasPrefix(rest, "{{"):
			return i, tagEnd(rest, "}}"), "{{"
		case strings.HasPrefix(rest, "{%"):
			return i, tagEnd(rest, "%}"), "{%"
		}
		i++
	}
	return -1, 0, ""
}

// LiteralIncludes lists the literal include, extends and import targets
// src names, in order (a name held in a variable is not followed).
func LiteralIncludes(src string) []string {
	if !strings.Contains(src, "{%") {
		return nil
	}
	var out []string
	for _, m := range includeRe.FindAllStringSubmatch(src, -1) {
		if n := m[1] + m[2]; n != "" {
			out = append(out, n)
		}
	}
	return out
}
