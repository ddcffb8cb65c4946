package yamlfast

import (
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// blockStops and flowStops mark the bytes that may end a word of a plain
// scalar, in block and in flow context (':' only before a space or a
// line end).
var blockStops, flowStops = stopTable(" \n:"), stopTable(" \n:,?[]{}")

func stopTable(stops string) (t [256]bool) {
	for i := 0; i < len(stops); i++ {
		t[stops[i]] = true
	}
	return t
}

// plain scans the plain scalar at pos, folding continuation lines as
// libyaml does; indent is the innermost block collection's (a
// continuation line must be indented more), flow: inside a flow
// collection (where ",?[]{}" end it). It returns the node and whether it
// spans lines, leaving pos right after its last character.
func (p *parser) plain(indent int, flow bool) (*yaml.Node, bool) {
	src := p.src
	line, col := p.line, p.col()
	start, i := p.pos, p.pos
	end, endLine, endLineStart := i, p.line, p.lineStart
	curLine, curLineStart := p.line, p.lineStart
	segStart := start // first character of the current line's part
	breaks := 0       // line breaks before the next word, when on a new line
	multi := false
	b := p.buf[:0]
	stops := &blockStops
	if flow {
		stops = &flowStops
	}
	for i < len(src) && src[i] != '#' {
		w := i
		for i < len(src) {
			if c := src[i]; stops[c] {
				if c != ':' || i+1 == len(src) || src[i+1] == ' ' || src[i+1] == '\n' {
					break
				}
			}
			i++
		}
		if i == w {
			break
		}
		if breaks > 0 {
			b = append(b, src[segStart:end]...)
			if breaks == 1 {
				b = append(b, ' ')
			}
			for ; breaks > 1; breaks-- {
				b = append(b, '\n')
			}
			breaks = 0
			segStart = w
			multi = true
		}
		end, endLine, endLineStart = i, curLine, curLineStart
		if i == len(src) || src[i] != ' ' && src[i] != '\n' {
			break
		}
		for i < len(src) && (src[i] == ' ' || src[i] == '\n') {
			if src[i] == '\n' {
				breaks++
				curLine++
				curLineStart = i + 1
			}
			i++
		}
		if breaks > 0 && i < len(src) {
			c := i - curLineStart
			if c <= indent {
				if flow {
					p.fail("flow continuation line not indented")
				}
				break
			}
			if c == 0 && i+3 <= len(src) && (src[i] == '-' || src[i] == '.') && src[i+1] == src[i] && src[i+2] == src[i] && (i+3 == len(src) || src[i+3] == ' ' || src[i+3] == '\n') {
				p.fail("document marker in a plain scalar")
			}
		}
	}
	p.pos, p.line, p.lineStart = end, endLine, endLineStart
	var v string
	if multi {
		b = append(b, src[segStart:end]...)
		v = string(b)
		p.buf = b[:0]
	} else {
		v = p.sub(start, end)
	}
	return p.scalar(v, plainTag(v), 0, line, col), multi
}

// quoted scans the single- or double-quoted scalar at pos; indent is the
// innermost block collection's (the subset wants continuation lines
// indented more). It returns the node and whether it spans lines, leaving
// pos after the closing quote.
func (p *parser) quoted(indent int) (*yaml.Node, bool) {
	src := p.src
	line, col := p.line, p.col()
	q := src[p.pos]
	single := q == '\''
	style := yaml.DoubleQuotedStyle
	if single {
		style = yaml.SingleQuotedStyle
	}
	i := p.pos + 1
	// The common case: no escape, no doubled quote, on one line.
	j := i
	for j < len(src) {
		c := src[j]
		if c == q || c == '\n' || c == '\\' && !single {
			break
		}
		j++
	}
	if j < len(src) && src[j] == q && !(single && j+1 < len(src) && src[j+1] == '\'') {
		p.pos = j + 1
		p.safe(i, j)
		return p.scalar(p.sub(i, j), tagStr, style, line, col), false
	}
	b := p.buf[:0]
	multi := false
	for {
		if i == p.lineStart && i+3 <= len(src) {
			save := p.pos
			p.pos = i
			if p.marker() {
				p.fail("document marker in a quoted scalar")
			}
			p.pos = save
		}
		if i >= len(src) {
			p.fail("unterminated quoted scalar")
		}
		leadingBlanks := false
		for i < len(src) && src[i] != ' ' && src[i] != '\n' {
			c := src[i]
			if single {
				if c == '\'' {
					if i+1 < len(src) && src[i+1] == '\'' {
						b = append(b, '\'')
						i += 2
						continue
					}
					break
				}
			} else {
				if c == '"' {
					break
				}
				if c == '\\' {
					if i+1 < len(src) && src[i+1] == '\n' {
						i += 2
						p.line++
						p.lineStart = i
						multi = true
						leadingBlanks = true
						break
					}
					i, b = p.escape(i, b)
					continue
				}
			}
			b = append(b, c)
			i++
		}
		if i < len(src) && src[i] == q {
			break
		}
		spaces, leadingBreak, trailing := 0, false, 0
		for i < len(src) && (src[i] == ' ' || src[i] == '\n') {
			if src[i] == ' ' {
				if !leadingBlanks {
					spaces++
				}
			} else {
				multi = true
				if !leadingBlanks {
					spaces, leadingBreak, leadingBlanks = 0, true, true
				} else {
					trailing++
				}
				p.line++
				p.lineStart = i + 1
			}
			i++
		}
		if leadingBlanks {
			if leadingBreak && trailing == 0 {
				b = append(b, ' ')
			}
			for ; trailing > 0; trailing-- {
				b = append(b, '\n')
			}
			if i < len(src) && i-p.lineStart <= indent {
				p.fail("quoted continuation line not indented")
			}
		} else {
			for ; spaces > 0; spaces-- {
				b = append(b, ' ')
			}
		}
	}
	p.pos = i + 1
	v := string(b)
	p.buf = b[:0]
	return p.scalar(v, tagStr, style, line, col), multi
}

// escape decodes the double-quoted escape sequence at src[i] ('\\') onto
// b as yaml.v3 does, returning the offset after it.
func (p *parser) escape(i int, b []byte) (int, []byte) {
	src := p.src
	if i+1 >= len(src) {
		p.fail("escape at the end")
	}
	n := 0
	switch src[i+1] {
	case '0':
		b = append(b, 0)
	case 'a':
		b = append(b, '\a')
	case 'b':
		b = append(b, '\b')
	case 't':
		b = append(b, '\t')
	case 'n':
		b = append(b, '\n')
	case 'v':
		b = append(b, '\v')
	case 'f':
		b = append(b, '\f')
	case 'r':
		b = append(b, '\r')
	case 'e':
		b = append(b, 0x1b)
	case ' ', '"', '\'', '\\':
		b = append(b, src[i+1])
	case 'N':
		b = append(b, "\u0085"...)
	case '_':
		b = append(b, "\u00a0"...)
	case 'L':
		b = append(b, "\u2028"...)
	case 'P':
		b = append(b, "\u2029"...)
	case 'x':
		n = 2
	case 'u':
		n = 4
	case 'U':
		n = 8
	default:
		p.fail("unknown escape")
	}
	i += 2
	if n == 0 {
		return i, b
	}
	if i+n > len(src) {
		p.fail("short escape")
	}
	v := 0
	for k := 0; k < n; k++ {
		h := hexVal(src[i+k])
		if h < 0 {
			p.fail("bad hex escape")
		}
		v = v<<4 | h
	}
	if v >= 0xd800 && v <= 0xdfff || v > 0x10ffff {
		p.fail("invalid escaped character")
	}
	return i + n, utf8.AppendRune(b, rune(v))
}

func hexVal(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

// blockScalar scans the literal or folded block scalar whose indicator is
// at pos; indent is the innermost block collection's. It leaves pos on the
// first line after the scalar, past the spaces it consumed.
func (p *parser) blockScalar(indent int) *yaml.Node {
	src := p.src
	line, col := p.line, p.col()
	literal := src[p.pos] == '|'
	style := yaml.LiteralStyle
	if !literal {
		style = yaml.FoldedStyle
	}
	i := p.pos + 1
	chomp, incr := 0, 0
	chompAt := func() {
		if i < len(src) && (src[i] == '+' || src[i] == '-') {
			chomp = 1
			if src[i] == '-' {
				chomp = -1
			}
			i++
		}
	}
	digitAt := func() {
		if i < len(src) && src[i] >= '0' && src[i] <= '9' {
			if src[i] == '0' {
				p.fail("indentation indicator 0")
			}
			incr = int(src[i] - '0')
			i++
		}
	}
	if i < len(src) && (src[i] == '+' || src[i] == '-') {
		chompAt()
		digitAt()
	} else {
		digitAt()
		chompAt()
	}
	for i < len(src) && src[i] == ' ' {
		i++
	}
	if i < len(src) && src[i] == '#' { // a comment, even right after the indicators
		p.pos = i
		p.toLineEnd()
		i = p.pos
	}
	if i < len(src) && src[i] != '\n' {
		p.fail("block scalar header")
	}
	if i == len(src) {
		p.pos = i
		return p.scalar("", tagStr, style, line, col)
	}
	i++
	p.line++
	p.lineStart = i
	ind := 0
	if incr > 0 {
		if indent >= 0 {
			ind = indent + incr
		} else {
			ind = incr
		}
	}
	b := p.buf[:0]
	trailing := 0
	c := 0 // column of i
	// breaks moves past indentation and empty lines, counting the line
	// breaks, and fixes the indentation when it is not yet known.
	breaks := func() {
		most := 0
		for {
			c = 0
			for (ind == 0 || c < ind) && i < len(src) && src[i] == ' ' {
				i++
				c++
			}
			if c > most {
				most = c
			}
			if i < len(src) && src[i] == '\t' && (ind == 0 || c < ind) {
				p.fail("tab in a block scalar's indentation")
			}
			if i == len(src) || src[i] != '\n' {
				break
			}
			trailing++
			i++
			p.line++
			p.lineStart = i
		}
		if ind == 0 {
			ind = max(most, indent+1, 1)
		}
	}
	breaks()
	leadingBreak, leadingBlank := false, false
	for c == ind && i < len(src) {
		trailingBlank := src[i] == ' ' || src[i] == '\t'
		if !literal && leadingBreak && !leadingBlank && !trailingBlank {
			if trailing == 0 {
				b = append(b, ' ')
			}
		} else if leadingBreak {
			b = append(b, '\n')
		}
		leadingBreak = false
		for ; trailing > 0; trailing-- {
			b = append(b, '\n')
		}
		leadingBlank = trailingBlank
		e := len(src)
		if k := strings.IndexByte(src[i:], '\n'); k >= 0 {
			e = i + k
		}
		p.safe(i, e)
		b = append(b, src[i:e]...)
		i = e
		if i < len(src) {
			leadingBreak = true
			i++
			p.line++
			p.lineStart = i
		}
		breaks()
	}
	if chomp != -1 && leadingBreak {
		b = append(b, '\n')
	}
	if chomp == 1 {
		for ; trailing > 0; trailing-- {
			b = append(b, '\n')
		}
	}
	p.pos = i
	v := string(b)
	p.buf = b[:0]
	return p.scalar(v, tagStr, style, line, col)
}
