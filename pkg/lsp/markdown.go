package lsp

import (
	"fmt"
	"strings"

	"kitsoki/internal/jsonvalue"
	"kitsoki/internal/termsafe"
)

// mdSpecial are the characters that start Markdown markup: an image the
// editor would fetch (![](url)), a link, HTML, an entity (&#x202e;), a
// code span, emphasis, a heading, a table, math.
const mdSpecial = "\\`*_[]()<>!#|~&$"

// mdText is s, text from the story, as Markdown that renders as the text
// itself: every character of mdSpecial backslash-escaped (CommonMark lets
// any ASCII punctuation be), controls and invisibles escaped (termsafe).
// So a description opened in an editor adds no image to fetch, no link
// and no markup.
func mdText(s string) string {
	s = termsafe.Printable(s)
	if !strings.ContainsAny(s, mdSpecial) {
		return s
	}
	var b strings.Builder
	for _, c := range s {
		if c < 0x80 && strings.ContainsRune(mdSpecial, c) {
			b.WriteByte('\\')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// mdCode is s, a name or value from the story, as a code span on one
// line: delimited by more backticks than any run inside it (and padded
// when it starts or ends with one), so it cannot close the span early.
func mdCode(s string) string {
	s = termsafe.Line(s)
	longest, run := 0, 0
	for _, c := range s {
		if c == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", longest+1)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		return fence + " " + s + " " + fence
	}
	return fence + s + fence
}

// mdValue is a story value as code: text as written, anything else (and
// empty text) as JSON, so a hover shows `""`, `{}` and `["a","b"]` rather
// than an empty span, Go's `map[]` and `[a b]`.
func mdValue(v any) string {
	if s, ok := v.(string); ok && s != "" {
		return mdCode(s)
	}
	if b, err := jsonvalue.MarshalNoHTML(v); err == nil {
		return mdCode(string(b))
	}
	return mdCode(fmt.Sprint(v))
}
