package schema

import (
	"encoding/json"
	"unicode/utf8"
)

// quickDecode decodes data as decodeJSON's json.Decoder does (numbers as
// json.Number, objects as map[string]any with the last of duplicate keys,
// arrays as []any) for the input it is sure of: well-formed JSON, one
// value and nothing but whitespace after it, strings of valid UTF-8 with
// no \u escape of a surrogate, nesting under the decoder's limit. ok is
// false for anything else, which decodeJSON then hands to encoding/json:
// its result, and every error message, are the library's own. It is about
// four times cheaper than the decoder on a schema file.
func quickDecode(data []byte) (v any, ok bool) {
	d := quickDecoder{data: data}
	v, ok = d.value(0)
	if !ok {
		return nil, false
	}
	d.space()
	return v, d.i == len(d.data)
}

type quickDecoder struct {
	data []byte
	i    int
	buf  []byte // scratch for strings with escapes
}

// quickMaxDepth bounds the nesting quickDecode takes, under encoding/json's
// limit (10000), so the library's error for deeper input is its own.
const quickMaxDepth = 5000

func (d *quickDecoder) space() {
	for d.i < len(d.data) {
		switch d.data[d.i] {
		case ' ', '\t', '\n', '\r':
			d.i++
		default:
			return
		}
	}
}

func (d *quickDecoder) value(depth int) (any, bool) {
	d.space()
	if d.i >= len(d.data) {
		return nil, false
	}
	switch c := d.data[d.i]; {
	case (c == '{' || c == '[') && depth >= quickMaxDepth:
		return nil, false
	case c == '{':
		return d.object(depth)
	case c == '[':
		return d.array(depth)
	case c == '"':
		s, common, ok := d.str()
		if common >= 0 {
			return commonBoxed[common], true
		}
		return s, ok
	case c == '-' || c >= '0' && c <= '9':
		return d.number()
	case c == 't':
		return true, d.word("true")
	case c == 'f':
		return false, d.word("false")
	case c == 'n':
		return nil, d.word("null")
	}
	return nil, false
}

func (d *quickDecoder) word(w string) bool {
	if len(d.data)-d.i < len(w) || string(d.data[d.i:d.i+len(w)]) != w {
		return false
	}
	d.i += len(w)
	return true
}

func (d *quickDecoder) object(depth int) (any, bool) {
	d.i++ // {
	m := map[string]any{}
	d.space()
	if d.i < len(d.data) && d.data[d.i] == '}' {
		d.i++
		return m, true
	}
	for {
		d.space()
		if d.i >= len(d.data) || d.data[d.i] != '"' {
			return nil, false
		}
		k, _, ok := d.str()
		if !ok {
			return nil, false
		}
		d.space()
		if d.i >= len(d.data) || d.data[d.i] != ':' {
			return nil, false
		}
		d.i++
		v, ok := d.value(depth + 1)
		if !ok {
			return nil, false
		}
		m[k] = v
		d.space()
		if d.i >= len(d.data) {
			return nil, false
		}
		switch d.data[d.i] {
		case ',':
			d.i++
		case '}':
			d.i++
			return m, true
		default:
			return nil, false
		}
	}
}

func (d *quickDecoder) array(depth int) (any, bool) {
	d.i++ // [
	a := []any{}
	d.space()
	if d.i < len(d.data) && d.data[d.i] == ']' {
		d.i++
		return a, true
	}
	for {
		v, ok := d.value(depth + 1)
		if !ok {
			return nil, false
		}
		a = append(a, v)
		d.space()
		if d.i >= len(d.data) {
			return nil, false
		}
		switch d.data[d.i] {
		case ',':
			d.i++
		case ']':
			d.i++
			return a, true
		default:
			return nil, false
		}
	}
}

// number scans a JSON number (RFC 8259 grammar) and keeps its text.
func (d *quickDecoder) number() (any, bool) {
	start := d.i
	if d.data[d.i] == '-' {
		d.i++
	}
	if d.i >= len(d.data) {
		return nil, false
	}
	switch c := d.data[d.i]; {
	case c == '0':
		d.i++
	case c >= '1' && c <= '9':
		d.digits()
	default:
		return nil, false
	}
	if d.i < len(d.data) && d.data[d.i] == '.' {
		d.i++
		if !d.digits() {
			return nil, false
		}
	}
	if d.i < len(d.data) && (d.data[d.i] == 'e' || d.data[d.i] == 'E') {
		d.i++
		if d.i < len(d.data) && (d.data[d.i] == '+' || d.data[d.i] == '-') {
			d.i++
		}
		if !d.digits() {
			return nil, false
		}
	}
	return json.Number(d.data[start:d.i]), true
}

// digits skips one or more decimal digits.
func (d *quickDecoder) digits() bool {
	start := d.i
	for d.i < len(d.data) && d.data[d.i] >= '0' && d.data[d.i] <= '9' {
		d.i++
	}
	return d.i > start
}

// str scans a string at d.i (the opening quote). common is its index in
// commonBoxed (the string returned is that one), or -1.
func (d *quickDecoder) str() (s string, common int, ok bool) {
	d.i++
	start := d.i
	for d.i < len(d.data) {
		c := d.data[d.i]
		switch {
		case c == '"':
			b := d.data[start:d.i]
			d.i++
			if common := commonIndex(b); common >= 0 {
				return commonBoxed[common].(string), common, true
			}
			return string(b), -1, true
		case c == '\\':
			s, ok := d.escaped(start)
			return s, -1, ok
		case c < 0x20:
			return "", -1, false
		case c >= utf8.RuneSelf:
			r, n := utf8.DecodeRune(d.data[d.i:])
			if r == utf8.RuneError && n == 1 {
				return "", -1, false // the library replaces it: leave it to it
			}
			d.i += n
		default:
			d.i++
		}
	}
	return "", -1, false
}

// escaped finishes a string holding escapes: d.data[start:d.i] is plain
// text, d.i a backslash.
func (d *quickDecoder) escaped(start int) (string, bool) {
	b := append(d.buf[:0], d.data[start:d.i]...)
	for d.i < len(d.data) {
		c := d.data[d.i]
		switch {
		case c == '"':
			d.i++
			d.buf = b
			return string(b), true
		case c == '\\':
			if d.i+1 >= len(d.data) {
				return "", false
			}
			e := d.data[d.i+1]
			d.i += 2
			switch e {
			case '"', '\\', '/':
				b = append(b, e)
			case 'b':
				b = append(b, '\b')
			case 'f':
				b = append(b, '\f')
			case 'n':
				b = append(b, '\n')
			case 'r':
				b = append(b, '\r')
			case 't':
				b = append(b, '\t')
			case 'u':
				r, ok := d.hex4()
				if !ok || !utf8.ValidRune(r) {
					return "", false // a surrogate: the library pairs or replaces it
				}
				b = utf8.AppendRune(b, r)
			default:
				return "", false
			}
		case c < 0x20:
			return "", false
		case c >= utf8.RuneSelf:
			r, n := utf8.DecodeRune(d.data[d.i:])
			if r == utf8.RuneError && n == 1 {
				return "", false
			}
			b = append(b, d.data[d.i:d.i+n]...)
			d.i += n
		default:
			b = append(b, c)
			d.i++
		}
	}
	return "", false
}

// hex4 reads the four hex digits of a \u escape.
func (d *quickDecoder) hex4() (rune, bool) {
	if len(d.data)-d.i < 4 {
		return 0, false
	}
	var r rune
	for _, c := range d.data[d.i : d.i+4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			c = c - 'A' + 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	d.i += 4
	return r, true
}
