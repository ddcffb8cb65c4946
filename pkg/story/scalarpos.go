package story

import (
	"strings"
	"unicode/utf8"
)

// Positions inside scalars. A diagnostic about a guard, a template or a
// path names the offending token, not the key: the expression libraries
// report a line and a column inside the value, and valuePos maps them back
// through the YAML scalar's style (plain, '…', "…" with escapes, literal |
// and folded > blocks) to the file's line and column.

// valuePos maps line and col (1-based, runes, inside the scalar value val
// that starts at p) to a file position. It returns p when the value cannot
// be mapped exactly (the source is unknown, or the reconstruction of the
// scalar disagrees with val).
func (l *loader) valuePos(p Pos, val string, line, col int) Pos {
	if line <= 0 || col <= 0 || p.Line <= 0 || p.Col <= 0 {
		return p
	}
	at, ok := l.scalarRunes(p, val)
	if !ok {
		return p
	}
	// Find the rune index of (line, col) in val.
	idx, ln, c := 0, 1, 1
	for _, r := range val {
		if ln == line && c == col {
			break
		}
		if r == '\n' {
			ln++
			c = 1
		} else {
			c++
		}
		idx++
	}
	if ln != line || c != col {
		if ln == line && idx == len(at)-1 {
			return at[idx] // just past the end: the position after the last rune
		}
		return p
	}
	return at[idx]
}

// scalarRunes reconstructs the scalar at p from the source and returns the
// file position of each rune of val, plus one for the position just past
// its end.
func (l *loader) scalarRunes(p Pos, val string) ([]Pos, bool) {
	lines, ok := l.lines[p.File]
	if !ok {
		src, ok := l.sources[p.File]
		if !ok {
			return nil, false
		}
		lines = strings.Split(string(src), "\n")
		if l.lines == nil {
			l.lines = map[string][]string{}
		}
		l.lines[p.File] = lines
	}
	if p.Line > len(lines) {
		return nil, false
	}
	first := []rune(strings.TrimRight(lines[p.Line-1], "\r"))
	if p.Col-1 >= len(first) {
		return nil, false
	}
	// Value positions of quoted scalars point just inside the quote
	// (fileParser.valuePos); a plain scalar never follows a quote.
	if p.Col >= 2 && (first[p.Col-2] == '"' || first[p.Col-2] == '\'') {
		p.Col--
	}
	var got []rune
	var at []Pos
	emit := func(r rune, line, col int) {
		got = append(got, r)
		at = append(at, Pos{File: p.File, Line: line, Col: col})
	}
	line := func(n int) []rune { // 1-based
		if n > len(lines) {
			return nil
		}
		return []rune(strings.TrimRight(lines[n-1], "\r"))
	}
	switch first[p.Col-1] {
	case '|', '>':
		folded := first[p.Col-1] == '>'
		indent := -1
		lastBlank, prevText := false, false
		n := p.Line + 1
		for ; n <= len(lines); n++ {
			rs := line(n)
			lead := 0
			for lead < len(rs) && rs[lead] == ' ' {
				lead++
			}
			blank := lead == len(rs)
			if !blank && indent < 0 {
				indent = lead
			}
			if !blank && lead < indent {
				break
			}
			if blank {
				if folded || indent < 0 {
					emit('\n', n, 1)
				} else {
					// a blank line inside a literal block: its spaces past
					// the indentation are content
					for i := indent; i < len(rs); i++ {
						emit(rs[i], n, i+1)
					}
					emit('\n', n, len(rs)+1)
				}
				lastBlank, prevText = true, false
				continue
			}
			more := lead > indent
			if folded && prevText && !lastBlank && !more {
				// the line break before this line folds into a space
				got[len(got)-1] = ' '
			}
			for i := indent; i < len(rs); i++ {
				emit(rs[i], n, i+1)
			}
			emit('\n', n, len(rs)+1)
			lastBlank, prevText = false, !more
		}
		// chomping: compare without trailing line breaks
		trimmed := strings.TrimRight(string(got), "\n")
		want := strings.TrimRight(val, "\n")
		if trimmed != want {
			return nil, false
		}
		n = utf8.RuneCountInString(want)
		return at[:min(n+1, len(at))], true
	case '"':
		n, i := p.Line, p.Col // i: 0-based index of the rune after the quote
		rs := first
		for {
			if i >= len(rs) {
				// a line break folds into a space; the next line's
				// leading blanks are dropped
				n++
				if n > len(lines) {
					return nil, false
				}
				if len(got) > 0 && got[len(got)-1] == '\\' {
					return nil, false
				}
				emit(' ', n-1, len(rs)+1)
				rs = line(n)
				i = 0
				for i < len(rs) && (rs[i] == ' ' || rs[i] == '\t') {
					i++
				}
				continue
			}
			r := rs[i]
			if r == '"' {
				break
			}
			if r == '\\' && i+1 < len(rs) {
				width := 2
				switch rs[i+1] {
				case 'x':
					width = 4
				case 'u':
					width = 6
				case 'U':
					width = 10
				}
				// the escape is one rune of the value
				emit(0, n, i+1)
				i += width
				continue
			}
			emit(r, n, i+1)
			i++
		}
		emit(0, n, i+1)
		return checkRunes(got, at, val, true)
	case '\'':
		rs := first
		i := p.Col
		for i < len(rs) {
			if rs[i] == '\'' {
				if i+1 < len(rs) && rs[i+1] == '\'' {
					emit('\'', p.Line, i+1)
					i += 2
					continue
				}
				break
			}
			emit(rs[i], p.Line, i+1)
			i++
		}
		emit(0, p.Line, i+1)
		return checkRunes(got, at, val, false)
	default:
		rs := first
		for i := p.Col - 1; i < len(rs); i++ {
			emit(rs[i], p.Line, i+1)
		}
		emit(0, p.Line, len(rs)+1)
		// a plain scalar ends before " #" and trailing blanks, and may be
		// followed by ", " or "}" in a flow mapping: val is a prefix.
		return checkRunes(got, at, val, false)
	}
}

// checkRunes keeps the positions of val's runes (and the one past its end)
// when the reconstruction agrees with val. With escapes, escaped runes are
// recorded as 0 and match anything.
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
