package jsonvalue

import (
	"encoding/json"
	"maps"
	"slices"
	"unicode/utf8"
)

// MarshalPrefix returns json.Marshal(v) when it is at most limit bytes,
// and otherwise a prefix of it longer than limit, without encoding the
// rest: a summary of a big answer need not encode the answer. Values
// of other types than decoded JSON's (maps of any, []any, strings,
// numbers, bools, nil) are marshalled whole. nil when v does not encode.
func MarshalPrefix(v any, limit int) []byte {
	p := prefixer{limit: limit}
	if !p.value(v) {
		b, err := json.Marshal(v)
		if err != nil {
			return nil
		}
		return b
	}
	return p.out
}

type prefixer struct {
	out   []byte
	limit int
}

// full reports an encoding past limit: the rest is not needed.
func (p *prefixer) full() bool { return len(p.out) > p.limit }

// value appends v's encoding until it is past limit; false for a value
// it leaves to json.Marshal.
func (p *prefixer) value(v any) bool {
	if p.full() {
		return true
	}
	switch x := v.(type) {
	case string:
		if k := p.limit - len(p.out) + 1; k < len(x) {
			for k < len(x) && !utf8.RuneStart(x[k]) {
				k++ // a cut inside a rune would change how it encodes
			}
			if k < len(x) {
				b, _ := json.Marshal(x[:k]) // a string always encodes
				p.out = append(p.out, b[:len(b)-1]...)
				return true
			}
		}
		b, _ := json.Marshal(x)
		p.out = append(p.out, b...)
	case nil, bool, float64, int, int64, json.Number:
		b, err := json.Marshal(x)
		if err != nil {
			return false
		}
		p.out = append(p.out, b...)
	case map[string]any:
		if x == nil {
			p.out = append(p.out, "null"...)
			return true
		}
		p.out = append(p.out, '{')
		for i, k := range slices.Sorted(maps.Keys(x)) {
			if i > 0 {
				p.out = append(p.out, ',')
			}
			if !p.value(k) {
				return false
			}
			if p.full() {
				return true // the key was cut
			}
			p.out = append(p.out, ':')
			if !p.value(x[k]) {
				return false
			}
			if p.full() {
				return true
			}
		}
		p.out = append(p.out, '}')
	case []any:
		if x == nil {
			p.out = append(p.out, "null"...)
			return true
		}
		p.out = append(p.out, '[')
		for i, e := range x {
			if i > 0 {
				p.out = append(p.out, ',')
			}
			if !p.value(e) {
				return false
			}
			if p.full() {
				return true
			}
		}
		p.out = append(p.out, ']')
	default:
		return false
	}
	return true
}
