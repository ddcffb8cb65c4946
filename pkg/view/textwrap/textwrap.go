package textwrap

import (
	"strings"
	"unicode"

	"github.com/mattn/go-runewidth"
)

// wrapCells measures a word's runes for WordWrap as upstream's wrapper does:
// go-runewidth's table, rune by rune, no grapheme clusters (so U+FE0F is a
// cell, "❤️" two and a ZWJ family six; conformance view-wrap-rune-width),
// East Asian ambiguous runes narrow whatever the locale says.
var wrapCells = &runewidth.Condition{}

// WordWrap wraps s at limit cells as upstream's plain-text renderer does,
// keeping line breaks and two of its quirks: a hyphen is a breakpoint not
// counted in the length, and a word moves to the next line only while it
// is narrower than limit (never cut). Spaces at a break or the end are
// dropped. An escape sequence takes no cells and breaks nothing: from ESC
// to its terminator (escapeEnds) every rune, a space, a newline or a
// hyphen too, is part of the word (conformance view-wrap-ansi).
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
		escape  bool
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
		case c == '\x1b':
			word.WriteRune(c)
			escape = true
		case escape:
			word.WriteRune(c)
			escape = !escapeEnds(c)
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
			wordLen += wrapCells.RuneWidth(c)
			if lineLen+space.Len()+wordLen > limit && wordLen < limit {
				addNewLine()
			}
		}
	}
	addWord()
	return out.String()
}

// EndsInEscape reports whether s ends inside an escape sequence as
// WordWrap reads one (ESC, then no ASCII letter up to the end): what
// follows its ESC, spaces too, is the sequence's and no trailing space.
func EndsInEscape(s string) bool {
	i := strings.LastIndexByte(s, '\x1b')
	return i >= 0 && strings.IndexFunc(s[i+1:], escapeEnds) < 0
}

// escapeEnds reports whether c ends an escape sequence as upstream's
// wrapper reads one: any ASCII letter, so an OSC 8 link's "\x1b]8;;file:"
// ends at its "f" and the rest of the URL is printed text.
func escapeEnds(c rune) bool {
	return c >= 0x40 && c <= 0x5a || c >= 0x61 && c <= 0x7a
}
