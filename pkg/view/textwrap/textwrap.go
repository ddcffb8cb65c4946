package textwrap

import (
	"strings"
	"unicode"

	"golang.org/x/text/width"
)

// RuneWidth is the number of terminal cells r takes: 2 for East Asian wide
// runes, 0 for combining marks, format and control characters (C1 too), the
// line and paragraph separators and the noncharacters U+FFFE and U+FFFF
// (conformance view-zero-width-runes), else 1.
func RuneWidth(r rune) int {
	switch {
	case r < 0x20 || r >= 0x7f && r <= 0x9f, r == 0x2028, r == 0x2029, r == 0xfffe, r == 0xffff:
		return 0
	case unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Me, r) || unicode.Is(unicode.Cf, r):
		return 0
	}
	switch width.LookupRune(r).Kind() {
	case width.EastAsianWide, width.EastAsianFullwidth:
		return 2
	}
	return 1
}

// WordWrap wraps s at limit cells as upstream's plain-text renderer does,
// keeping line breaks and two of its quirks: a hyphen is a breakpoint not
// counted in the length, and a word moves to the next line only while it
// is narrower than limit (never cut). Spaces at a break or the end are
// dropped.
func WordWrap(s string, limit int) string {
	if limit <= 0 {
		return s
	}
	var (
		out     strings.Builder
		space   strings.Builder
		word    strings.Builder
		lineLen int
		wordLen int
	)
	addSpace := func() {
		lineLen += space.Len()
		out.WriteString(space.String())
		space.Reset()
	}
	addWord := func() {
		if word.Len() == 0 {
			return
		}
		addSpace()
		lineLen += wordLen
		out.WriteString(word.String())
		word.Reset()
		wordLen = 0
	}
	addNewLine := func() {
		out.WriteByte('\n')
		lineLen = 0
		space.Reset()
	}
	for _, c := range s {
		switch {
		case c == '\n':
			if word.Len() == 0 {
				if lineLen+space.Len() > limit {
					lineLen = 0
				} else {
					out.WriteString(space.String())
				}
				space.Reset()
			}
			addWord()
			addNewLine()
		case unicode.IsSpace(c):
			addWord()
			space.WriteRune(c)
		case c == '-':
			addSpace()
			addWord()
			out.WriteRune(c)
		default:
			word.WriteRune(c)
			wordLen += RuneWidth(c)
			if lineLen+space.Len()+wordLen > limit && wordLen < limit {
				addNewLine()
			}
		}
	}
	addWord()
	return out.String()
}
