package termsafe

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Printable returns s with every control character of [IsControl] escaped
// as \xNN (below U+0100) or \uNNNN, each byte that is not valid UTF-8 as
// \xNN, and every line of s that a CI log
// would read as a workflow command (see [IsCommandLine]) defused by
// escaping its first character; newlines and tabs stay. Clean text is
// returned as it is, without copying.
func Printable(s string) string { return escape(s, false) }

// Line is [Printable] for a value printed on one line (a name, a state, a
// path, a header field): newlines are escaped too, as \n, so the value
// can neither end the line it is on nor start another.
func Line(s string) string { return escape(s, true) }

// Cell is [Line] with tabs shown as \t too: text for one cell of a row or
// a tab-aligned table, which can then neither add a row nor move a column.
func Cell(s string) string { return strings.ReplaceAll(Line(s), "\t", `\t`) }

// IsCommandLine reports whether a CI runner would take line as a command
// to it: GitHub Actions' "::name ...::" after leading white space, or the
// older "##[name]" form (Azure Pipelines' "##vso[" included) anywhere in
// the line, where both runners look for it.
func IsCommandLine(line string) bool {
	t := strings.TrimLeftFunc(line, unicode.IsSpace)
	return strings.HasPrefix(t, "::") || markerIndex(line) >= 0
}

// markers are the older workflow command forms (GitHub Actions, Azure
// Pipelines, TeamCity).
var markers = []string{"##[", "##vso[", "##teamcity["}

// markerIndex is the index of the first marker in s, or -1.
func markerIndex(s string) int {
	first := -1
	for _, m := range markers {
		if i := strings.Index(s, m); i >= 0 && (first < 0 || i < first) {
			first = i
		}
	}
	return first
}

// IsControl reports whether c must not reach a terminal raw: C0 and C1
// controls other than newline and tab, DEL, the line and paragraph
// separators, bidirectional controls and marks, and invisible characters
// that join nothing or draw as blank space that is not white space (the
// soft hyphen, the Hangul fillers, the tag characters that can carry a
// hidden copy of ASCII text), since each lets two names that print alike
// differ; and the noncharacters U+FFFE and U+FFFF, which XML cannot hold
// (a JUnit report would show U+FFFD for either). The zero width joiner and non-joiner (U+200C, U+200D) and the
// variation selectors stay: emoji and several scripts need them.
func IsControl(c rune) bool {
	if c < 0x7f {
		return c < 0x20 && c != '\n' && c != '\t'
	}
	return unicode.Is(invisible, c)
}

// invisible is what [IsControl] escapes beyond the C0 controls.
var invisible = &unicode.RangeTable{
	R16: []unicode.Range16{
		{Lo: 0x7f, Hi: 0x9f, Stride: 1}, // DEL, C1 controls
		{Lo: 0xad, Hi: 0xad, Stride: 1}, // soft hyphen
		{Lo: 0x034f, Hi: 0x034f, Stride: 1},
		{Lo: 0x061c, Hi: 0x061c, Stride: 1},
		{Lo: 0x115f, Hi: 0x1160, Stride: 1}, // Hangul fillers
		{Lo: 0x17b4, Hi: 0x17b5, Stride: 1},
		{Lo: 0x180e, Hi: 0x180e, Stride: 1},
		{Lo: 0x200b, Hi: 0x200b, Stride: 1}, // zero width space
		{Lo: 0x200e, Hi: 0x200f, Stride: 1}, // direction marks
		{Lo: 0x2028, Hi: 0x202e, Stride: 1}, // line/paragraph separators, bidi embeddings
		{Lo: 0x2060, Hi: 0x2064, Stride: 1},
		{Lo: 0x2066, Hi: 0x2069, Stride: 1}, // bidi isolates
		{Lo: 0x3164, Hi: 0x3164, Stride: 1},
		{Lo: 0xfeff, Hi: 0xfeff, Stride: 1},
		{Lo: 0xffa0, Hi: 0xffa0, Stride: 1},
		{Lo: 0xfff9, Hi: 0xfffb, Stride: 1},
		{Lo: 0xfffe, Hi: 0xffff, Stride: 1}, // noncharacters: no XML report can carry them
	},
	R32: []unicode.Range32{
		{Lo: 0xe0000, Hi: 0xe007f, Stride: 1}, // tag characters
	},
}

// WorkflowData is s as the message of a GitHub workflow command
// ("::error file=...::DATA"): [Printable], then '%', CR and LF
// percent-encoded, so the whole message stays on the command's line.
func WorkflowData(s string) string { return workflowData.Replace(Printable(s)) }

// WorkflowProperty is s as a property value of a GitHub workflow command
// (file=, title=): [WorkflowData] with ':' and ',' encoded too.
func WorkflowProperty(s string) string { return workflowProp.Replace(Printable(s)) }

var (
	workflowData = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	workflowProp = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")
)

// escape is Printable (oneLine false) or Line (oneLine true).
func escape(s string, oneLine bool) string {
	if isClean(s, oneLine) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i, line := range strings.Split(s, "\n") {
		if i > 0 {
			if oneLine {
				b.WriteString(`\n`)
			} else {
				b.WriteByte('\n')
			}
		}
		if t := strings.TrimLeftFunc(line, unicode.IsSpace); strings.HasPrefix(t, "::") && (i == 0 || !oneLine) {
			// Escape the first character of the command marker.
			k := len(line) - len(t)
			writeEscaped(&b, line[:k])
			b.WriteString(`\x3a`)
			line = line[k+1:]
		}
		writeDefused(&b, line)
	}
	return b.String()
}

// writeDefused is writeEscaped with the first '#' of every marker
// escaped: runners obey those anywhere in a line.
func writeDefused(b *strings.Builder, s string) {
	for k := markerIndex(s); k >= 0; k = markerIndex(s) {
		writeEscaped(b, s[:k])
		b.WriteString(`\x23`)
		s = s[k+1:]
	}
	writeEscaped(b, s)
}

// isClean reports whether escape would return s unchanged.
func isClean(s string, oneLine bool) bool {
	if !utf8.ValidString(s) || strings.ContainsFunc(s, IsControl) || (oneLine && strings.Contains(s, "\n")) {
		return false
	}
	if !strings.Contains(s, "::") && !strings.Contains(s, "##") {
		return true
	}
	return !slices.ContainsFunc(strings.Split(s, "\n"), IsCommandLine)
}

// writeEscaped writes s with its control characters and invalid UTF-8
// bytes escaped.
func writeEscaped(b *strings.Builder, s string) {
	for i, c := range s {
		switch {
		case c == utf8.RuneError && !strings.HasPrefix(s[i:], "\uFFFD"):
			fmt.Fprintf(b, "\\x%02x", s[i])
		case !IsControl(c):
			b.WriteRune(c)
		case c < 0x100:
			fmt.Fprintf(b, "\\x%02x", c)
		case c <= 0xffff:
			fmt.Fprintf(b, "\\u%04x", c)
		default:
			fmt.Fprintf(b, "\\U%08x", c)
		}
	}
}
