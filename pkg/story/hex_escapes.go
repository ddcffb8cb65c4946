package story

import (
	"bytes"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// HexEscape is a \x, \u or \U escape written in a double-quoted scalar of
// a view or a world default, which the existing engine reads differently
// (docs/compat/story.md, "escape"): pkg/lint warns at each.
type HexEscape struct {
	Pos Pos
	// Text is the escape as written (`\u00e9`); Next is the text after it
	// up to the end of the line (at most 8 bytes), which upstream reads
	// as the next escape; Closes says the scalar ends right after it.
	Text, Next string
}

// maxHexEscapeDepth bounds the nesting hexEscapes follows.
const maxHexEscapeDepth = 64

// hexEscapes returns the hex escapes of the double-quoted scalars (keys
// included) at or below n, read from the file's own text at each scalar's
// line and column. Nil when the file has none anywhere (one scan of it).
func (p *fileParser) hexEscapes(n *yaml.Node) []HexEscape {
	if p.src == nil {
		return nil
	}
	if p.srcHasHex == 0 {
		p.srcHasHex = -1
		if hasHexEscapeText(p.src) {
			p.srcHasHex = 1
		}
	}
	if p.srcHasHex < 0 {
		return nil
	}
	return p.appendHexEscapes(nil, n, 0)
}

// hasHexEscapeText reports whether src holds a backslash before x, u or U.
func hasHexEscapeText(src []byte) bool {
	return bytes.Contains(src, []byte(`\x`)) || bytes.Contains(src, []byte(`\u`)) || bytes.Contains(src, []byte(`\U`))
}

// appendHexEscapes walks n (aliases are not followed: their anchor is
// read where it is written).
func (p *fileParser) appendHexEscapes(out []HexEscape, n *yaml.Node, depth int) []HexEscape {
	if n == nil || depth > maxHexEscapeDepth {
		return out
	}
	switch n.Kind {
	case yaml.ScalarNode:
		if n.Style&yaml.DoubleQuotedStyle != 0 {
			out = p.scanQuoted(out, n.Line, n.Column)
		}
	case yaml.MappingNode, yaml.SequenceNode, yaml.DocumentNode:
		for _, c := range n.Content {
			out = p.appendHexEscapes(out, c, depth+1)
		}
	}
	return out
}

// scanQuoted appends the hex escapes of the double-quoted scalar whose
// opening quote is at line, col (1-based, col in characters) of p.src;
// nothing when the text there is no opening quote.
func (p *fileParser) scanQuoted(out []HexEscape, line, col int) []HexEscape {
	lineStart := p.lineStart(line)
	at := runeOffset(p.src, lineStart, col-1)
	if at < 0 || p.src[at] != '"' {
		return out
	}
	for i := at + 1; i < len(p.src); i++ {
		switch p.src[i] {
		case '\n':
			line, lineStart = line+1, i+1
		case '"':
			return out
		case '\\':
			if i+1 >= len(p.src) {
				return out
			}
			if w := hexEscapeWidth(p.src[i+1]); w > 0 {
				end := min(i+2+w, len(p.src))
				out = append(out, HexEscape{
					Pos:  Pos{File: p.File, Line: line, Col: utf8.RuneCount(p.src[lineStart:i]) + 1},
					Text: string(p.src[i:end]), Next: nextText(p.src[end:]),
				})
			} else if p.src[i+1] == '\n' {
				continue // an escaped line break: the loop counts it
			}
			i++ // the escaped character
		}
	}
	return out
}

// hexEscapeWidth is the number of hex digits after \c (0: no hex escape).
func hexEscapeWidth(c byte) int {
	switch c {
	case 'x':
		return 2
	case 'u':
		return 4
	case 'U':
		return 8
	}
	return 0
}

// nextText is the start of rest up to the line's end, at most 8 bytes.
func nextText(rest []byte) string {
	if i := bytes.IndexAny(rest, "\r\n"); i >= 0 {
		rest = rest[:i]
	}
	if len(rest) > 8 {
		rest = rest[:8]
	}
	return string(rest)
}

// lineStart is the offset of the 1-based line in p.src (len(p.src) past
// the end), from an index of line starts built on first use.
func (p *fileParser) lineStart(line int) int {
	if p.lines == nil {
		p.lines = []int{0}
		for i, b := range p.src {
			if b == '\n' {
				p.lines = append(p.lines, i+1)
			}
		}
	}
	if line < 1 || line > len(p.lines) {
		return len(p.src)
	}
	return p.lines[line-1]
}

// runeOffset is the offset n characters past from in src (-1 past the
// line or the text).
func runeOffset(src []byte, from, n int) int {
	i := from
	for ; n > 0 && i < len(src) && src[i] != '\n'; n-- {
		_, w := utf8.DecodeRune(src[i:])
		i += w
	}
	if n > 0 || i >= len(src) {
		return -1
	}
	return i
}
