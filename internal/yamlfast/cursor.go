package yamlfast

import (
	"encoding/binary"
	"slices"
	"strings"
	"unicode/utf8"
	"unsafe"

	"go.yaml.in/yaml/v3"
)

// checkChars returns why src is outside the subset at the character level
// (control characters, invalid UTF-8, a BOM, NEL/LS/PS, U+FFFE, U+FFFF),
// "" when every character is fine, and counts the tabs (parser.tabs).
func checkChars(src string) (why string, tabs int) {
	// Eight ASCII bytes at a time: none >= 0x7f and the bytes below 0x20
	// exactly the '\n's; no test carries across bytes.
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	bytes := unsafe.Slice(unsafe.StringData(src), len(src)) // read only
	for i := 0; i < len(src); {
		if i+8 <= len(src) {
			w := binary.LittleEndian.Uint64(bytes[i:])
			below := ^(w + 0x60*ones) & highs            // bytes < 0x20
			lf := ^((w ^ '\n'*ones) + 0x7f*ones) & highs // bytes == '\n'
			del := (w + ones) & highs                    // bytes == 0x7f
			if w&highs == 0 && below == lf && del == 0 {
				i += 8
				continue
			}
		}
		c := src[i]
		if c < utf8.RuneSelf {
			if c == '\t' {
				tabs++
			} else if c < ' ' && c != '\n' || c == 0x7f {
				return "control character or carriage return", 0
			}
			i++
			continue
		}
		r, w := utf8.DecodeRuneInString(src[i:])
		switch {
		case r == utf8.RuneError && w == 1:
			return "invalid UTF-8", 0
		case r <= 0x9f, r == 0x2028, r == 0x2029, r == 0xfeff, r == 0xfffe, r == 0xffff:
			return "special character", 0
		}
		i += w
	}
	return "", tabs
}

// dropCR returns src with the '\r' of every "\r\n" removed; false when a
// '\r' is not followed by '\n' (an old Mac line break, left to yaml.v3).
func dropCR(src string) (string, bool) {
	b := make([]byte, 0, len(src))
	for i := 0; i < len(src); i++ {
		if src[i] == '\r' {
			if i+1 == len(src) || src[i+1] != '\n' {
				return "", false
			}
			continue
		}
		b = append(b, src[i])
	}
	return string(b), true
}

// col returns the 0-based column of pos, in characters.
func (p *parser) col() int {
	from, n := p.lineStart, 0
	if p.colLine == p.lineStart && p.colPos <= p.pos {
		from, n = p.colPos, p.colVal
	}
	n += colAt(p.src, from, p.pos)
	p.colLine, p.colPos, p.colVal = p.lineStart, p.pos, n
	return n
}

// colAt returns the number of characters in src[from:to].
func colAt(src string, from, to int) int {
	n := 0
	for i := from; i < to; i++ {
		if src[i]&0xc0 != 0x80 {
			n++
		}
	}
	return n
}

// spacesTo records that only spaces precede pos, so its column is its offset.
func (p *parser) spacesTo() {
	p.colLine, p.colPos, p.colVal = p.lineStart, p.pos, p.pos-p.lineStart
}

// newline moves past the '\n' at pos.
func (p *parser) newline() {
	p.pos++
	p.lineAt(p.pos)
}

// lineAt records that a new line starts at offset i (just after a '\n').
func (p *parser) lineAt(i int) { p.line, p.lineStart = p.line+1, i }

// blankz reports whether offset i is a space, a line end or the end of
// input (tabs and carriage returns never reach the parser).
func (p *parser) blankz(i int) bool {
	return i >= len(p.src) || p.src[i] == ' ' || p.src[i] == '\n'
}

// marker reports a document marker ("---" or "...") at pos, at a line start.
func (p *parser) marker() bool { return p.pos == p.lineStart && p.markerAt(p.pos) }

// markerAt reports a document marker at offset i.
func (p *parser) markerAt(i int) bool {
	if i+3 > len(p.src) {
		return false
	}
	c := p.src[i]
	return (c == '-' || c == '.') && p.src[i+1] == c && p.src[i+2] == c && p.blankz(i+3)
}

// skipBlanks moves past spaces on the current line.
func (p *parser) skipBlanks() {
	for p.pos < len(p.src) && p.src[p.pos] == ' ' {
		p.pos++
	}
}

// atLineEnd reports whether only a comment (libyaml's '#' at a token
// boundary, "{}#c") or nothing is left on the line at pos.
func (p *parser) atLineEnd() bool {
	return p.pos >= len(p.src) || p.src[p.pos] == '\n' || p.src[p.pos] == '#'
}

// lineEnd requires that only spaces and a comment follow on the line.
func (p *parser) lineEnd() {
	p.skipBlanks()
	if !p.atLineEnd() {
		p.fail("more on the line after a node")
	}
}

// skipSpace moves past spaces, comments and line ends to the next token,
// stopping at a document marker at the start of a line (docEnd).
func (p *parser) skipSpace() {
	if !p.lead && p.marker() { // a block scalar ends at the start of a line
		p.docEnd = true
		return
	}
	fresh := false // only spaces since the start of the line
	for p.pos < len(p.src) {
		switch p.src[p.pos] {
		case ' ':
			p.pos++
		case '\n':
			p.newline()
			fresh = true
			if !p.lead && p.marker() {
				p.docEnd = true
				return
			}
		case '#':
			p.toLineEnd()
			fresh = false
		default:
			if fresh {
				p.spacesTo()
			}
			return
		}
	}
}

// done reports the end of input or a document marker skipSpace stopped at.
func (p *parser) done() bool { return p.pos >= len(p.src) || p.docEnd }

// toLineEnd moves pos past a comment (tabs allowed) to its line's '\n'.
func (p *parser) toLineEnd() {
	end := len(p.src)
	if i := strings.IndexByte(p.src[p.pos:], '\n'); i >= 0 {
		end = p.pos + i
	}
	p.safe(p.pos, end)
	p.pos = end
}

// safe counts the tabs of src[i:j], a place where libyaml reads a tab as
// any character (a comment, block scalar content, a one-line quoted
// scalar); the parse declines unless every tab is in such a place.
func (p *parser) safe(i, j int) {
	if p.tabs > 0 {
		p.safeTabs += strings.Count(p.src[i:j], "\t")
	}
}

// colonAfter reports whether the rest of the line at pos is spaces and a
// ':' making the node before it a block mapping key; pos is left at ':'.
func (p *parser) colonAfter() bool {
	i := p.pos
	for i < len(p.src) && p.src[i] == ' ' {
		i++
	}
	if i < len(p.src) && p.src[i] == ':' && p.blankz(i+1) {
		p.pos = i
		return true
	}
	return false
}

// LaterOver is the Declined reason of a document after the first that
// passes the node limit (counted apart from the first).
const LaterOver = "a later document past the node limit"

// node returns a new node at the 0-based line and col, or stops the parse
// at it when it is the one past p.maxNodes (ParseWithin).
func (p *parser) node(line, col int) *yaml.Node {
	p.nodes++
	if p.maxNodes > 0 && p.nodes > p.maxNodes {
		if p.later {
			p.fail(LaterOver)
		}
		panic(&Over{Line: line + 1, Col: col + 1})
	}
	if p.count {
		return &p.scratch // counted, never kept: no field of it is read
	}
	return &yaml.Node{Line: line + 1, Column: col + 1}
}

// keep collects a child for the next takeKids (none when counting).
func (p *parser) keep(n *yaml.Node) {
	if !p.count {
		p.kids = append(p.kids, n)
	}
}

// keepPair collects a mapping entry's key and value (keep).
func (p *parser) keepPair(key, val *yaml.Node) {
	if !p.count {
		p.kids = append(p.kids, key, val)
	}
}

// takeKids pops the children collected since mark into a Content slice
// (nil for none, as yaml.v3 leaves it).
func (p *parser) takeKids(mark int) []*yaml.Node {
	if len(p.kids) == mark {
		return nil
	}
	out := slices.Clone(p.kids[mark:])
	clear(p.kids[mark:])
	p.kids = p.kids[:mark]
	return out
}
