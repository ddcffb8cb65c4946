package yamlnode

import (
	"cmp"
	"strings"
	"unicode/utf8"
)

// ValueAt maps line and col (1-based, runes, inside the scalar value val
// whose node is at p) to a file position, re-reading the scalar from the
// file's lines through its YAML style (plain, quoted, literal or folded
// block): a diagnostic then names the offending token, not the scalar's
// first character or block indicator. It returns p when the source does
// not match val.
func ValueAt(lines []string, p Pos, val string, line, col int) Pos {
	if line <= 0 || col <= 0 || p.Line <= 0 || p.Col <= 0 {
		return p
	}
	return NewScalarPos(lines, p, val).At(line, col)
}

// ScalarPos is [ValueAt] for many places in one scalar: the scalar is
// re-read from the source once, then each place costs no pass over it (a
// check reporting every read of a long value would otherwise re-read it
// per read).
type ScalarPos struct {
	p      Pos
	at     []Pos // the file position of each rune of the value, and one past its end
	starts []int // the rune index where each line of the value starts
	lens   []int // each line's length in runes, without its line break
}

// NewScalarPos reads the scalar value val whose node is at p.
func NewScalarPos(lines []string, p Pos, val string) *ScalarPos {
	sp := &ScalarPos{p: p}
	if p.Line <= 0 || p.Col <= 0 {
		return sp
	}
	at, ok := scalarRunes(lines, p, val)
	if !ok {
		return sp
	}
	sp.at, sp.starts = at, []int{0}
	n, width := 0, 0
	for _, r := range val {
		n++
		if r == '\n' {
			sp.lens = append(sp.lens, width)
			sp.starts = append(sp.starts, n)
			width = 0
			continue
		}
		width++
	}
	sp.lens = append(sp.lens, width)
	return sp
}

// At maps line and col (1-based, runes, inside the value) to a file
// position, as [ValueAt] does; the scalar's own position when the source
// does not match the value or the place is not in it.
func (sp *ScalarPos) At(line, col int) Pos {
	if sp.at == nil || line <= 0 || col <= 0 || line > len(sp.starts) {
		return sp.p
	}
	l, last := line-1, len(sp.starts)-1
	switch {
	case col-1 < sp.lens[l] || col-1 == sp.lens[l] && l < last: // a rune, or a line's break
		if idx := sp.starts[l] + col - 1; idx < len(sp.at) {
			return sp.at[idx]
		}
		return sp.p // past what the source kept (a chomped block's last break)
	case l == last && sp.starts[l]+sp.lens[l] == len(sp.at)-1:
		return sp.at[len(sp.at)-1] // past the end: the position after the last rune
	}
	return sp.p
}

// scalarRunes re-reads the scalar at p from the source and returns the
// file position of each rune of val, plus one just past its end.
func scalarRunes(lines []string, p Pos, val string) ([]Pos, bool) {
	rs := &runeScan{file: p.File, lines: lines}
	first := rs.line(p.Line)
	if p.Col-1 >= len(first) {
		return nil, false
	}
	// A quoted scalar's value position points just inside the quote.
	if p.Col >= 2 && (first[p.Col-2] == '"' || first[p.Col-2] == '\'') {
		p.Col--
	}
	switch first[p.Col-1] {
	case '|', '>':
		return rs.block(p, first[p.Col-1] == '>', val)
	case '"':
		if !rs.doubleQuoted(p, first) {
			return nil, false
		}
		return checkRunes(rs.got, rs.at, val, true)
	case '\'':
		rs.singleQuoted(p, first)
		return checkRunes(rs.got, rs.at, val, false)
	default:
		rs.emitLine(p.Line, first, p.Col-1, 0) // val is a prefix of the line
		return checkRunes(rs.got, rs.at, val, false)
	}
}

// runeScan collects the runes of a re-read scalar with their positions.
type runeScan struct {
	file  string
	lines []string
	got   []rune
	at    []Pos
}

func (rs *runeScan) emit(r rune, line, col int) {
	rs.got = append(rs.got, r)
	rs.at = append(rs.at, Pos{File: rs.file, Line: line, Col: col})
}

// emitLine emits line n from its rune from on, then end just past it.
func (rs *runeScan) emitLine(n int, line []rune, from int, end rune) {
	for i := from; i < len(line); i++ {
		rs.emit(line[i], n, i+1)
	}
	rs.emit(end, n, len(line)+1)
}

// line returns line n (1-based) without its \r; nil past the end.
func (rs *runeScan) line(n int) []rune {
	if n > len(rs.lines) {
		return nil
	}
	return []rune(strings.TrimRight(rs.lines[n-1], "\r"))
}

// block re-reads a literal (|) or folded (>) block scalar whose indicator
// is at p.
func (rs *runeScan) block(p Pos, folded bool, val string) ([]Pos, bool) {
	indent := -1
	lastBlank, prevText := false, false
	for n := p.Line + 1; n <= len(rs.lines); n++ {
		line := rs.line(n)
		lead := 0
		for lead < len(line) && line[lead] == ' ' {
			lead++
		}
		blank := lead == len(line)
		if !blank && indent < 0 {
			indent = lead
		}
		if !blank && lead < indent {
			break
		}
		if blank {
			// in a literal block, spaces past the indentation are content
			if folded || indent < 0 {
				rs.emit('\n', n, 1)
			} else {
				rs.emitLine(n, line, indent, '\n')
			}
			lastBlank, prevText = true, false
			continue
		}
		more := lead > indent
		if folded && prevText && !lastBlank && !more {
			// the line break before this line folds into a space
			rs.got[len(rs.got)-1] = ' '
		}
		rs.emitLine(n, line, indent, '\n')
		lastBlank, prevText = false, !more
	}
	// chomping: compare without trailing line breaks
	trimmed := strings.TrimRight(string(rs.got), "\n")
	want := strings.TrimRight(val, "\n")
	if trimmed != want {
		return nil, false
	}
	n := utf8.RuneCountInString(want)
	return rs.at[:min(n+1, len(rs.at))], true
}

// doubleQuoted re-reads a "..." scalar opening at p (first is its line):
// an escape is one rune, a line break folds into a space.
func (rs *runeScan) doubleQuoted(p Pos, first []rune) bool {
	n, i := p.Line, p.Col // i: 0-based index of the rune after the quote
	line := first
	for {
		if i >= len(line) {
			n++
			if n > len(rs.lines) {
				return false
			}
			if len(rs.got) > 0 && rs.got[len(rs.got)-1] == '\\' {
				return false
			}
			rs.emit(' ', n-1, len(line)+1)
			line = rs.line(n)
			i = 0
			for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
				i++
			}
			continue
		}
		r := line[i]
		if r == '"' {
			break
		}
		if r == '\\' && i+1 < len(line) {
			rs.emit(0, n, i+1)
			i += cmp.Or(escapeWidths[line[i+1]], 2)
			continue
		}
		rs.emit(r, n, i+1)
		i++
	}
	rs.emit(0, n, i+1)
	return true
}

// escapeWidths are the source widths of the escapes longer than \n, by the
// rune after their '\'.
var escapeWidths = map[rune]int{'x': 4, 'u': 6, 'U': 10}

// singleQuoted re-reads a single-quoted scalar opening at p (a doubled
// quote is one quote).
func (rs *runeScan) singleQuoted(p Pos, first []rune) {
	i := p.Col
	for i < len(first) {
		if first[i] == '\'' {
			if i+1 < len(first) && first[i+1] == '\'' {
				rs.emit('\'', p.Line, i+1)
				i += 2
				continue
			}
			break
		}
		rs.emit(first[i], p.Line, i+1)
		i++
	}
	rs.emit(0, p.Line, i+1)
}

// checkRunes keeps the positions of val's runes (and one past its end)
// when got agrees with val; with escapes, a 0 rune matches anything.
func checkRunes(got []rune, at []Pos, val string, escapes bool) ([]Pos, bool) {
	i, text := 0, len(got)-1 // the last entry marks the end
	for _, r := range val {
		if i >= text {
			return nil, false
		}
		if got[i] != r && !(escapes && got[i] == 0) {
			return nil, false
		}
		i++
	}
	return at[:i+1], true
}
