package host

import (
	"math/bits"
	"strings"
	"unicode"
	"unicode/utf8"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"
)

// The bounds below say, before a builtin runs, how many bytes its result
// can take at most, so that one call cannot build a value far larger
// than its arguments (", ".join([s] * 100), s.replace("a", s), str of a
// list holding one large string many times). Each is an upper bound
// computed without building the result, and stops counting once it passes
// maxValueBytes.

// over is a bound past every limit: the result would be refused.
const over = maxValueBytes + 1

// elemBytes is what one new small value in a new list costs: its slot
// and the value itself (a string header, a tuple of two, a boxed int).
const elemBytes = 64

// addSat and mulSat add and multiply bounds, saturating at over.
func addSat(a, b uint64) uint64 {
	s, carry := bits.Add64(a, b, 0)
	if carry != 0 || s > over {
		return over
	}
	return s
}

func mulSat(a, b uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	if hi != 0 || lo > over {
		return over
	}
	return lo
}

// escapedLen bounds the length of s quoted by repr or json.encode: each
// byte that either writes as an escape (controls, quotes, backslash,
// HTML's <>&, a rune that does not print, a byte that is not UTF-8)
// counts as the longest escape for it.
func escapedLen(s string) uint64 {
	n := uint64(len(s)) + 2
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c < 0x20 || c == 0x7f || c == '<' || c == '>' || c == '&':
				n += 5 // \u00XX
			case c == '"' || c == '\\':
				n++
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			n += 5 // \ufffd or \xNN
		case !unicode.IsPrint(r):
			n += 10 // \UXXXXXXXX
		}
		i += size
	}
	return n
}

// strBound bounds the length of str(v), repr(v) or json.encode(v) (top
// says v itself is a string given to str, which prints it as it is).
func strBound(v starlark.Value, top bool) uint64 {
	b := &strBounder{seen: map[starlark.Value]bool{}}
	if s, ok := v.(starlark.String); ok && top {
		return uint64(len(s))
	}
	b.add(v)
	return b.n
}

type strBounder struct {
	n     uint64
	seen  map[starlark.Value]bool // containers on the current path (a cycle prints as [...])
	depth int                     // containers on the current path
}

// maxNesting bounds the containers str, repr and json.encode print one
// inside another: upstream's printers look for a cycle along the path,
// quadratic in its depth, in one step no cancel interrupts. Deeper is
// counted as over.
const maxNesting = 10000

func (b *strBounder) grow(k uint64) { b.n = addSat(b.n, k) }

func (b *strBounder) add(v starlark.Value) {
	if b.n >= over {
		return
	}
	switch v := v.(type) {
	case starlark.String:
		b.grow(escapedLen(string(v)))
	case starlark.Bytes:
		b.grow(1 + escapedLen(string(v)))
	case starlark.Int:
		if x, ok := v.Int64(); ok && x > -1e15 && x < 1e15 {
			b.grow(17)
			return
		}
		b.grow(uint64(v.BigInt().BitLen())/3 + 2)
	case starlark.Float, starlark.Bool, starlark.NoneType:
		b.grow(32)
	case *starlark.List, starlark.Tuple, *starlark.Dict, *starlark.Set, *starlarkstruct.Struct:
		if _, tuple := v.(starlark.Tuple); !tuple { // a tuple cannot hold itself (nor, a slice, key seen)
			if b.seen[v] {
				b.grow(5)
				return
			}
			b.seen[v] = true
			defer delete(b.seen, v)
		}
		if b.depth++; b.depth > maxNesting {
			b.n = over
		}
		b.grow(2 + uint64(len(v.Type())))
		b.container(v)
		b.depth--
	default:
		// a function, a module, ctx and its parts: their String is
		// their name, never their contents
		b.grow(uint64(len(v.String())))
	}
}

// container adds the elements of a list, tuple, dict, set or struct.
func (b *strBounder) container(v starlark.Value) {
	switch v := v.(type) {
	case *starlarkstruct.Struct:
		for _, name := range v.AttrNames() {
			if b.n >= over {
				return
			}
			x, _ := v.Attr(name)
			b.grow(uint64(len(name)) + 3)
			if x != nil {
				b.add(x)
			}
		}
	case *starlark.Dict:
		for _, kv := range v.Items() {
			if b.n >= over {
				return
			}
			b.grow(4)
			b.add(kv[0])
			b.add(kv[1])
		}
	case starlark.Iterable:
		it := v.Iterate()
		defer it.Done()
		var x starlark.Value
		for b.n < over && it.Next(&x) {
			b.grow(2)
			b.add(x)
		}
	}
}

// lenOf is the number of elements of v, 0 when it knows none.
func lenOf(v starlark.Value) uint64 {
	switch s := v.(type) {
	case starlark.Sequence:
		return uint64(s.Len())
	case starlark.Indexable:
		return uint64(s.Len())
	}
	return 0
}

// joinBound bounds sep.join(it): the strings it holds and the separators.
func joinBound(sep string, it starlark.Value) uint64 {
	iter, ok := it.(starlark.Iterable)
	if !ok {
		return 0
	}
	i := iter.Iterate()
	defer i.Done()
	var n, count uint64
	var x starlark.Value
	for n < over && i.Next(&x) {
		if s, ok := x.(starlark.String); ok {
			n = addSat(n, uint64(len(s)))
		}
		if count > 0 {
			n = addSat(n, uint64(len(sep)))
		}
		count++
	}
	return n
}

// replaceBound bounds s.replace(old, new, count).
func replaceBound(s, old, new string, count int) uint64 {
	if len(new) <= len(old) {
		return uint64(len(s))
	}
	k := utf8.RuneCountInString(s) + 1
	if old != "" {
		k = strings.Count(s, old)
	}
	if count >= 0 && count < k {
		k = count
	}
	return addSat(uint64(len(s)), mulSat(uint64(k), uint64(len(new)-len(old))))
}

// formatBound bounds a %-format or str.format with the format string f:
// every field may print the longest of the arguments.
func formatBound(f string, fieldMark string, args ...starlark.Value) uint64 {
	// a string prints as it is, unless a field asks for its repr
	asIs := !strings.Contains(f, "%r") && !strings.Contains(f, "!r")
	var widest uint64
	for _, a := range args {
		widest = max(widest, strBound(a, asIs))
	}
	return addSat(uint64(len(f)), mulSat(uint64(strings.Count(f, fieldMark)), widest))
}

// indentBound bounds json.indent(src, prefix=, indent=): every bracket
// and comma outside a string starts a line with the prefix and one indent
// per level.
func indentBound(src, prefix, indent string) uint64 {
	n := uint64(len(src))
	depth := uint64(0)
	inStr, esc := false, false
	line := func() { n = addSat(n, addSat(uint64(len(prefix))+2, mulSat(depth, uint64(len(indent))))) }
	for i := 0; i < len(src) && n < over; i++ {
		c := src[i]
		switch {
		case inStr && esc:
			esc = false
		case inStr && c == '\\':
			esc = true
		case inStr:
			inStr = c != '"'
		case c == '"':
			inStr = true
		case c == '[' || c == '{':
			depth++
			line()
		case c == ']' || c == '}':
			depth = max(depth, 1) - 1
			line()
		case c == ',':
			line()
		}
	}
	return n
}

// decodeBound bounds the memory json.decode(src) takes: every array,
// object and element is a new value.
func decodeBound(src string) uint64 {
	values := uint64(strings.Count(src, ",")) + uint64(strings.Count(src, "[")) + uint64(strings.Count(src, "{")) + 1
	return addSat(uint64(len(src)), mulSat(values, elemBytes))
}

// memBound bounds the memory a value converted from Go holds: its
// strings' bytes and elemBytes for every element, stopping past over.
func memBound(v starlark.Value) uint64 {
	var n uint64
	var add func(v starlark.Value)
	add = func(v starlark.Value) {
		if n >= over {
			return
		}
		switch v := v.(type) {
		case starlark.String:
			n = addSat(n, uint64(len(v))+elemBytes)
		case *starlark.Dict:
			for _, kv := range v.Items() {
				add(kv[0])
				add(kv[1])
			}
		case starlark.Iterable:
			it := v.Iterate()
			defer it.Done()
			var x starlark.Value
			for n < over && it.Next(&x) {
				add(x)
			}
		default:
			n = addSat(n, elemBytes)
		}
	}
	add(v)
	return n
}
