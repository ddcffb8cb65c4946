package yamlfast

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// blockStops and flowStops mark the bytes that may end a word of a plain
// scalar in block and flow context.
var blockStops, flowStops = stopTable(" \n:"), stopTable(" \n:,?[]{}")

func stopTable(stops string) (t [256]bool) {
	for i := 0; i < len(stops); i++ {
		t[stops[i]] = true
	}
	return t
}

// plain scans the plain scalar at pos, folding continuation lines (indented
// more than indent) as libyaml does, and reports whether it spans lines.
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
		i = wordEnd(src, i, stops)
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
			if c == 0 && p.markerAt(i) {
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

// wordEnd is the end of the word at i: the first stop byte, where a ':'
// stops only before a space, a line break or the end.
func wordEnd(src string, i int, stops *[256]bool) int {
	for ; i < len(src); i++ {
		if c := src[i]; stops[c] && (c != ':' || i+1 == len(src) || src[i+1] == ' ' || src[i+1] == '\n') {
			break
		}
	}
	return i
}

// quoted scans the quoted scalar at pos (continuation lines indented more
// than indent), returning the node and whether it spans lines.
func (p *parser) quoted(indent int) (*yaml.Node, bool) {
	line, col := p.line, p.col()
	q := p.src[p.pos]
	style := yaml.DoubleQuotedStyle
	if q == '\'' {
		style = yaml.SingleQuotedStyle
	}
	if n := p.quotedOneLine(q, style, line, col); n != nil {
		return n, false
	}
	s := quotedScan{p: p, i: p.pos + 1, b: p.buf[:0], single: q == '\''}
	for {
		s.lineStart()
		s.leadingBlanks = false
		s.word()
		if s.i < len(p.src) && p.src[s.i] == q {
			break
		}
		s.blanks(indent)
	}
	p.pos = s.i + 1
	v := string(s.b)
	p.buf = s.b[:0]
	return p.scalar(v, tagStr, style, line, col), s.multi
}

// quotedOneLine is the common case of a quoted scalar: no escape, no
// doubled quote, on one line. It returns nil, leaving pos, for any other.
func (p *parser) quotedOneLine(q byte, style yaml.Style, line, col int) *yaml.Node {
	src := p.src
	single := q == '\''
	i := p.pos + 1
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
		return p.scalar(p.sub(i, j), tagStr, style, line, col)
	}
	return nil
}

// quotedScan is quoted's place in a scalar that needs decoding.
type quotedScan struct {
	p             *parser
	i             int
	b             []byte
	single, multi bool
	leadingBlanks bool
}

// lineStart refuses a document marker at the start of a line inside the
// scalar, and the end of the input before the closing quote.
func (s *quotedScan) lineStart() {
	p := s.p
	if s.i == p.lineStart && p.markerAt(s.i) {
		p.fail("document marker in a quoted scalar")
	}
	if s.i >= len(p.src) {
		p.fail("unterminated quoted scalar")
	}
}

// word decodes the characters up to a blank, a line break or the closing quote.
func (s *quotedScan) word() {
	src := s.p.src
	for s.i < len(src) && src[s.i] != ' ' && src[s.i] != '\n' {
		more := false
		if s.single {
			more = s.singleChar()
		} else {
			more = s.doubleChar()
		}
		if !more {
			return
		}
	}
}

// singleChar decodes one character of a single-quoted scalar (a doubled
// quote is one quote); false at the closing quote.
func (s *quotedScan) singleChar() bool {
	src := s.p.src
	c := src[s.i]
	if c == '\'' {
		if s.i+1 < len(src) && src[s.i+1] == '\'' {
			s.b = append(s.b, '\'')
			s.i += 2
			return true
		}
		return false
	}
	s.b = append(s.b, c)
	s.i++
	return true
}

// doubleChar decodes one character or escape of a double-quoted scalar;
// false at the closing quote and after an escaped line break.
func (s *quotedScan) doubleChar() bool {
	p, src := s.p, s.p.src
	c := src[s.i]
	switch {
	case c == '"':
		return false
	case c == '\\' && s.i+1 < len(src) && src[s.i+1] == '\n':
		s.i += 2
		p.lineAt(s.i)
		s.multi = true
		s.leadingBlanks = true
		return false
	case c == '\\':
		s.i, s.b = p.escape(s.i, s.b)
		return true
	}
	s.b = append(s.b, c)
	s.i++
	return true
}

// blanks folds the blanks between words as libyaml does (a break is a
// space, n+1 breaks n newlines); continuation lines are indented more.
func (s *quotedScan) blanks(indent int) {
	p, src := s.p, s.p.src
	spaces, leadingBreak, trailing := 0, false, 0
	for s.i < len(src) && (src[s.i] == ' ' || src[s.i] == '\n') {
		if src[s.i] == ' ' {
			if !s.leadingBlanks {
				spaces++
			}
		} else { // a line break: the first of the blanks, or a further one
			if s.leadingBlanks {
				trailing++
			} else {
				spaces, leadingBreak, s.leadingBlanks = 0, true, true
			}
			s.multi = true
			p.lineAt(s.i + 1)
		}
		s.i++
	}
	if !s.leadingBlanks {
		for ; spaces > 0; spaces-- {
			s.b = append(s.b, ' ')
		}
		return
	}
	if leadingBreak && trailing == 0 {
		s.b = append(s.b, ' ')
	}
	for ; trailing > 0; trailing-- {
		s.b = append(s.b, '\n')
	}
	if s.i < len(src) && s.i-p.lineStart <= indent {
		p.fail("quoted continuation line not indented")
	}
}

// charEscapes and hexEscapes are the escapes of a double-quoted scalar:
// the text a character stands for, and the hex digits that follow.
var (
	charEscapes = map[byte]string{'0': "\x00", 'a': "\a", 'b': "\b", 't': "\t", 'n': "\n", 'v': "\v", 'f': "\f",
		'r': "\r", 'e': "\x1b", ' ': " ", '"': `"`, '\'': "'", '\\': `\`,
		'N': "\u0085", '_': "\u00a0", 'L': "\u2028", 'P': "\u2029"}
	hexEscapes = map[byte]int{'x': 2, 'u': 4, 'U': 8}
)

// escape decodes the double-quoted escape sequence at src[i] ('\\') onto
// b as yaml.v3 does, returning the offset after it.
func (p *parser) escape(i int, b []byte) (int, []byte) {
	src := p.src
	if i+1 >= len(src) {
		p.fail("escape at the end")
	}
	n, hex := hexEscapes[src[i+1]]
	if e, ok := charEscapes[src[i+1]]; ok {
		b = append(b, e...)
	} else if !hex {
		p.fail("unknown escape")
	}
	i += 2
	if n == 0 {
		return i, b
	}
	if i+n > len(src) {
		p.fail("short escape")
	}
	v, err := strconv.ParseUint(src[i:i+n], 16, 32)
	if err != nil {
		p.fail("bad hex escape")
	}
	if v >= 0xd800 && v <= 0xdfff || v > 0x10ffff {
		p.fail("invalid escaped character")
	}
	return i + n, utf8.AppendRune(b, rune(v))
}

// blockScalar scans the block scalar whose indicator is at pos, leaving pos
// on the first line after it.
func (p *parser) blockScalar(indent int) *yaml.Node {
	line, col := p.line, p.col()
	literal := p.src[p.pos] == '|'
	style := yaml.LiteralStyle
	if !literal {
		style = yaml.FoldedStyle
	}
	chomp, incr, i := p.blockHeader(p.pos + 1)
	if i == len(p.src) {
		p.pos = i
		return p.scalar("", tagStr, style, line, col)
	}
	i++
	p.lineAt(i)
	s := blockBody{p: p, i: i, b: p.buf[:0]}
	if incr > 0 {
		s.ind = max(indent, 0) + incr
	}
	s.breaks(indent)
	s.lines(literal, indent)
	if chomp != -1 && s.leadingBreak {
		s.b = append(s.b, '\n')
	}
	if chomp == 1 {
		s.newlines()
	}
	p.pos = s.i
	v := string(s.b)
	p.buf = s.b[:0]
	return p.scalar(v, tagStr, style, line, col)
}

// blockHeader reads a block scalar's chomping (-1 strip, 0 clip, 1 keep),
// indentation and comment from i, returning the header's line break.
func (p *parser) blockHeader(i int) (chomp, incr, end int) {
	src := p.src
	if i < len(src) && (src[i] == '+' || src[i] == '-') {
		chomp, i = p.chompIndicator(i)
		incr, i = p.indentIndicator(i)
	} else {
		incr, i = p.indentIndicator(i)
		chomp, i = p.chompIndicator(i)
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
	return chomp, incr, i
}

// chompIndicator reads an optional '+' (1) or '-' (-1) at i.
func (p *parser) chompIndicator(i int) (int, int) {
	if i < len(p.src) {
		switch p.src[i] {
		case '+':
			return 1, i + 1
		case '-':
			return -1, i + 1
		}
	}
	return 0, i
}

// indentIndicator reads an optional indentation digit at i (0 is refused).
func (p *parser) indentIndicator(i int) (int, int) {
	if i < len(p.src) && p.src[i] >= '0' && p.src[i] <= '9' {
		if p.src[i] == '0' {
			p.fail("indentation indicator 0")
		}
		return int(p.src[i] - '0'), i + 1
	}
	return 0, i
}

// blockBody is blockScalar's place in the content.
type blockBody struct {
	p            *parser
	i, c, ind    int
	trailing     int
	leadingBreak bool
	b            []byte
}

// breaks moves past indentation and empty lines, counting the line
// breaks, and fixes the indentation when it is not yet known.
func (s *blockBody) breaks(indent int) {
	p, src := s.p, s.p.src
	most := 0
	for {
		s.c = 0
		for (s.ind == 0 || s.c < s.ind) && s.i < len(src) && src[s.i] == ' ' {
			s.i++
			s.c++
		}
		most = max(most, s.c)
		if s.i < len(src) && src[s.i] == '\t' && (s.ind == 0 || s.c < s.ind) {
			p.fail("tab in a block scalar's indentation")
		}
		if s.i == len(src) || src[s.i] != '\n' {
			break
		}
		s.trailing++
		s.i++
		p.lineAt(s.i)
	}
	if s.ind == 0 {
		s.ind = max(most, indent+1, 1)
	}
}

// lines copies the content lines, joined as a literal or folded scalar.
func (s *blockBody) lines(literal bool, indent int) {
	p, src := s.p, s.p.src
	leadingBlank := false
	for s.c == s.ind && s.i < len(src) {
		trailingBlank := src[s.i] == ' ' || src[s.i] == '\t'
		folds := !literal && !leadingBlank && !trailingBlank
		switch {
		case s.leadingBreak && folds && s.trailing == 0:
			s.b = append(s.b, ' ')
		case s.leadingBreak && !folds:
			s.b = append(s.b, '\n')
		}
		s.leadingBreak = false
		s.newlines()
		leadingBlank = trailingBlank
		e := len(src)
		if k := strings.IndexByte(src[s.i:], '\n'); k >= 0 {
			e = s.i + k
		}
		p.safe(s.i, e)
		s.b = append(s.b, src[s.i:e]...)
		s.i = e
		if s.i < len(src) {
			s.leadingBreak = true
			s.i++
			p.lineAt(s.i)
		}
		s.breaks(indent)
	}
}

// newlines writes the line breaks counted so far.
func (s *blockBody) newlines() {
	for ; s.trailing > 0; s.trailing-- {
		s.b = append(s.b, '\n')
	}
}
