package lsp

import (
	"kitsoki/internal/safefile"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	protocol "github.com/tliron/glsp/protocol_3_16"
)

// maxFile caps what the server reads of a file from disk: the story YAML cap.
const maxFile = safefile.StoryYAML

// lines splits text into lines without their terminators.
func lines(text string) []string { return strings.Split(text, "\n") }

// utf16Col converts a 1-based rune column on line to a 0-based UTF-16
// offset, as LSP positions count.
func utf16Col(line string, runeCol int) protocol.UInteger {
	n, i := 0, 0
	for _, r := range line {
		if i >= runeCol-1 {
			break
		}
		n += utf16.RuneLen(r)
		i++
	}
	return protocol.UInteger(n)
}

// lineByte converts a 0-based UTF-16 offset on line to a byte offset (the
// line's length for an offset past its end).
func lineByte(line string, u16 protocol.UInteger) int {
	var n protocol.UInteger
	for bi, r := range line {
		if n >= u16 {
			return bi
		}
		n += protocol.UInteger(utf16.RuneLen(r))
	}
	return len(line)
}

// runeCol converts a 0-based UTF-16 offset on line to a 1-based rune column.
func runeCol(line string, u16 protocol.UInteger) int {
	return utf8.RuneCountInString(line[:lineByte(line, u16)]) + 1
}

// byteOffset is the byte offset of an LSP position in text (the text's
// length past its last line), found without splitting the text.
func byteOffset(text string, pos protocol.Position) int {
	off := 0
	for range pos.Line {
		i := strings.IndexByte(text[off:], '\n')
		if i < 0 {
			return len(text)
		}
		off += i + 1
	}
	line, _, _ := strings.Cut(text[off:], "\n")
	return off + lineByte(line, pos.Character)
}

// applyEdit applies one ranged change.
func applyEdit(text string, c protocol.TextDocumentContentChangeEvent) string {
	if c.Range == nil {
		return c.Text
	}
	a, b := byteOffset(text, c.Range.Start), byteOffset(text, c.Range.End)
	if a > b {
		a, b = b, a
	}
	return text[:a] + c.Text + text[b:]
}

// tokenRangeIn is the range of the token starting at 1-based (line, rune
// col) in the lines ls of a text: up to the next space, comma, bracket,
// quote or colon+space.
func tokenRangeIn(ls []string, line, col int) protocol.Range {
	line, col = max(line, 1), max(col, 1)
	start := protocol.Position{Line: protocol.UInteger(line - 1)}
	if line > len(ls) {
		return protocol.Range{Start: start, End: start}
	}
	l := ls[line-1]
	start.Character = utf16Col(l, col)
	i, rc := runeIndex(l, col)
	quote := byte(0)
	if i < len(l) && (l[i] == '"' || l[i] == '\'') {
		quote = l[i]
		i++
		rc++
	}
	for i < len(l) {
		ch := l[i]
		if quote != 0 {
			if ch == quote {
				rc++ // the closing quote is part of the token
				break
			}
		} else if ch == ' ' || ch == ',' || ch == ']' || ch == '}' || ch == '#' || (ch == ':' && (i+1 == len(l) || l[i+1] == ' ')) {
			break
		}
		_, sz := utf8.DecodeRuneInString(l[i:])
		i += sz
		rc++
	}
	end := protocol.Position{Line: start.Line, Character: utf16Col(l, rc)}
	if end.Character == start.Character { // an empty token: mark the whole rest of the line
		end.Character = utf16Col(l, utf8.RuneCountInString(l)+1)
	}
	return protocol.Range{Start: start, End: end}
}

// runeIndex is the byte index of 1-based rune column col on l and the
// column it stands at (the column past the line's end when l is shorter).
func runeIndex(l string, col int) (i, rc int) {
	rc = 1
	for i < len(l) && rc < col {
		_, sz := utf8.DecodeRuneInString(l[i:])
		i += sz
		rc++
	}
	return i, rc
}

// isName reports whether s is a plain name: letters, digits and _ only.
func isName(s string) bool {
	for _, c := range []byte(s) {
		if !nameByte(c) {
			return false
		}
	}
	return s != ""
}

func nameByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// nameRangeIn is the range of the plain name (isName) starting at the
// 1-based line and rune column; false when none starts there.
func nameRangeIn(ls []string, line, col int) (protocol.Range, bool) {
	if line < 1 || line > len(ls) || col < 1 {
		return protocol.Range{}, false
	}
	l := ls[line-1]
	i, rc := runeIndex(l, col)
	end := rc
	for i < len(l) && nameByte(l[i]) {
		i++
		end++
	}
	if end == rc {
		return protocol.Range{}, false
	}
	at := protocol.UInteger(line - 1)
	return protocol.Range{Start: protocol.Position{Line: at, Character: utf16Col(l, rc)}, End: protocol.Position{Line: at, Character: utf16Col(l, end)}}, true
}
