package jsonvalue

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// Decoding valid data into an empty interface does not go through
// json.Decoder, which reads the whole value into a buffer of its own that
// doubles as it fills (a 34 MiB answer cost some 130 MB of buffers before
// a byte was decoded): json.Valid checks the data where it lies, then
// value builds what encoding/json builds from it (map[string]any, []any,
// string, json.Number or float64, bool, nil; a repeated key's last value;
// strings unquoted as encoding/json unquotes them, in one buffer). Data
// that is not exactly one valid value, and a number float64 cannot hold,
// take the json.Decoder path for its error.

// oneValue decodes the valid JSON data into a new value; ok is false when
// a number does not fit a float64 (exact unset), or a string does not
// unquote, for the json.Decoder path to report.
func oneValue(data []byte, exact bool) (v any, ok bool) {
	p := valueParser{data: data, exact: exact, ok: true}
	v = p.value()
	return v, p.ok
}

type valueParser struct {
	data  []byte
	i     int
	exact bool
	ok    bool
}

func (p *valueParser) space() {
	for p.i < len(p.data) {
		switch p.data[p.i] {
		case ' ', '\t', '\r', '\n':
			p.i++
		default:
			return
		}
	}
}

// value reads the value at p.i (after any space); the data is valid JSON.
func (p *valueParser) value() any {
	p.space()
	switch c := p.data[p.i]; c {
	case '{':
		m := map[string]any{}
		p.i++
		p.space()
		if p.data[p.i] == '}' {
			p.i++
			return m
		}
		for p.ok {
			p.space()
			k := p.string()
			p.space()
			p.i++ // ':'
			m[k] = p.value()
			p.space()
			if p.data[p.i] == '}' {
				p.i++
				return m
			}
			p.i++ // ','
		}
		return nil
	case '[':
		l := []any{}
		p.i++
		p.space()
		if p.data[p.i] == ']' {
			p.i++
			return l
		}
		for p.ok {
			l = append(l, p.value())
			p.space()
			if p.data[p.i] == ']' {
				p.i++
				return l
			}
			p.i++ // ','
		}
		return nil
	case '"':
		return p.string()
	case 't':
		p.i += len("true")
		return true
	case 'f':
		p.i += len("false")
		return false
	case 'n':
		p.i += len("null")
		return nil
	}
	start := p.i
	for p.i < len(p.data) && bytes.IndexByte([]byte("+-.0123456789eE"), p.data[p.i]) >= 0 {
		p.i++
	}
	num := string(p.data[start:p.i])
	if p.exact {
		return json.Number(num)
	}
	f, err := strconv.ParseFloat(num, 64)
	if err != nil {
		p.ok = false
	}
	return f
}

// string reads the string at p.i as encoding/json unquotes it.
func (p *valueParser) string() string {
	start := p.i
	p.i++
	plain := true
	for {
		c := p.data[p.i]
		if c == '"' {
			break
		}
		if c == '\\' {
			plain = false
			p.i++ // the escaped byte cannot end the string
		}
		p.i++
	}
	p.i++
	raw := p.data[start:p.i]
	if plain && utf8.Valid(raw) {
		return string(raw[1 : len(raw)-1])
	}
	return unquote(raw[1 : len(raw)-1])
}

// unquote is the text of the valid JSON string body b, as encoding/json
// unquotes it (a lone or broken surrogate and each byte that is not
// UTF-8 become U+FFFD), built in one buffer: encoding/json builds it in
// one and copies that to a string.
func unquote(b []byte) string {
	var out strings.Builder
	out.Grow(len(b))
	for i := 0; i < len(b); {
		c := b[i]
		switch {
		case c == '\\':
			switch e := b[i+1]; e {
			case 'b':
				out.WriteByte('\b')
			case 'f':
				out.WriteByte('\f')
			case 'n':
				out.WriteByte('\n')
			case 'r':
				out.WriteByte('\r')
			case 't':
				out.WriteByte('\t')
			case 'u':
				r := hex4(b[i+2:])
				i += 6
				if utf16.IsSurrogate(r) {
					if i+6 <= len(b) && b[i] == '\\' && b[i+1] == 'u' {
						if d := utf16.DecodeRune(r, hex4(b[i+2:])); d != unicode.ReplacementChar {
							out.WriteRune(d)
							i += 6
							continue
						}
					}
					r = unicode.ReplacementChar
				}
				out.WriteRune(r)
				continue
			default: // '"', '\\', '/'
				out.WriteByte(e)
			}
			i += 2
		case c < utf8.RuneSelf:
			j := i + 1
			for j < len(b) && b[j] != '\\' && b[j] < utf8.RuneSelf {
				j++
			}
			out.Write(b[i:j])
			i = j
		default:
			r, size := utf8.DecodeRune(b[i:])
			out.WriteRune(r) // U+FFFD for a byte that is not UTF-8
			i += size
		}
	}
	return out.String()
}

// hex4 is the value of the four hex digits b starts with (valid JSON).
func hex4(b []byte) rune {
	var r rune
	for _, c := range b[:4] {
		switch {
		case c <= '9':
			c -= '0'
		case c <= 'F':
			c -= 'A' - 10
		default:
			c -= 'a' - 10
		}
		r = r<<4 | rune(c)
	}
	return r
}
