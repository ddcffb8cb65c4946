package trace

import "encoding/binary"

// A fast, allocation-free JSON scanner for event lines (RFC 8259). On
// anything unusual the reader falls back to encoding/json for its exact
// error text.

const maxScanDepth = 10000 // encoding/json's nesting limit

// strSpecial marks bytes that end the fast loop inside a string.
var strSpecial = func() (t [256]bool) {
	for c := range 0x20 {
		t[c] = true
	}
	t['"'] = true
	t['\\'] = true
	return
}()

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func skipSpace(b []byte, i int) int {
	for i < len(b) && isSpace(b[i]) {
		i++
	}
	return i
}

// skipString expects b[i] == '"' and returns the index after the closing
// quote and whether the string held an escape.
func skipString(b []byte, i int) (end int, escaped, ok bool) {
	i++
	for {
		// Eight bytes at a time while none is a quote, a backslash or a
		// control character.
		for i+8 <= len(b) {
			x := binary.LittleEndian.Uint64(b[i:])
			if hasSpecial(x) {
				break
			}
			i += 8
		}
		for i < len(b) && !strSpecial[b[i]] {
			i++
		}
		if i >= len(b) {
			return 0, false, false
		}
		switch c := b[i]; {
		case c == '"':
			return i + 1, escaped, true
		case c == '\\':
			escaped = true
			if i+1 >= len(b) {
				return 0, false, false
			}
			switch b[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+6 > len(b) {
					return 0, false, false
				}
				for _, h := range b[i+2 : i+6] {
					if !isHex(h) {
						return 0, false, false
					}
				}
				i += 6
			default:
				return 0, false, false
			}
		default: // control character
			return 0, false, false
		}
	}
}

const (
	lo8 = 0x0101010101010101
	hi8 = 0x8080808080808080
)

// hasSpecial reports whether any byte of x is '"', '\\' or below 0x20.
func hasSpecial(x uint64) bool {
	less20 := (x - lo8*0x20) & ^x & hi8
	q := x ^ (lo8 * '"')
	quote := (q - lo8) & ^q & hi8
	bs := x ^ (lo8 * '\\')
	back := (bs - lo8) & ^bs & hi8
	return less20|quote|back != 0
}

func isHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// skipNumber returns the end of the number at b[i].
func skipNumber(b []byte, i int) (int, bool) {
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && b[i] >= '1' && b[i] <= '9':
		i = skipDigits(b, i)
	default:
		return 0, false
	}
	if i < len(b) && b[i] == '.' {
		if i+1 >= len(b) || !isDigit(b[i+1]) {
			return 0, false
		}
		i = skipDigits(b, i+1)
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if i >= len(b) || !isDigit(b[i]) {
			return 0, false
		}
		i = skipDigits(b, i)
	}
	return i, true
}

func skipDigits(b []byte, i int) int {
	for i < len(b) && isDigit(b[i]) {
		i++
	}
	return i
}

func hasLit(b []byte, i int, lit string) bool {
	return len(b)-i >= len(lit) && string(b[i:i+len(lit)]) == lit
}

// skipValue returns the index after the JSON value starting at b[i] (no
// leading space).
func skipValue(b []byte, i, depth int) (int, bool) {
	if i >= len(b) {
		return 0, false
	}
	switch c := b[i]; {
	case c == '"':
		end, _, ok := skipString(b, i)
		return end, ok
	case c == '{':
		return skipObject(b, i, depth)
	case c == '[':
		return skipArray(b, i, depth)
	case c == 't':
		return i + 4, hasLit(b, i, "true")
	case c == 'f':
		return i + 5, hasLit(b, i, "false")
	case c == 'n':
		return i + 4, hasLit(b, i, "null")
	case c == '-' || isDigit(c):
		return skipNumber(b, i)
	}
	return 0, false
}

// skipObject is skipValue for the object whose '{' is at i.
func skipObject(b []byte, i, depth int) (int, bool) {
	if depth >= maxScanDepth {
		return 0, false
	}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return i + 1, true
	}
	for {
		if i >= len(b) || b[i] != '"' {
			return 0, false
		}
		end, _, ok := skipString(b, i)
		if !ok {
			return 0, false
		}
		i = skipSpace(b, end)
		if i >= len(b) || b[i] != ':' {
			return 0, false
		}
		i = skipSpace(b, i+1)
		if i, ok = skipValue(b, i, depth+1); !ok {
			return 0, false
		}
		var done bool
		if i, done, ok = nextMember(b, i, '}'); !ok || done {
			return i, ok
		}
	}
}

// skipArray is skipValue for the array whose '[' is at i.
func skipArray(b []byte, i, depth int) (int, bool) {
	if depth >= maxScanDepth {
		return 0, false
	}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == ']' {
		return i + 1, true
	}
	for {
		var ok bool
		if i, ok = skipValue(b, i, depth+1); !ok {
			return 0, false
		}
		var done bool
		if i, done, ok = nextMember(b, i, ']'); !ok || done {
			return i, ok
		}
	}
}

// nextMember reads what follows a member at i: ',' (the next member's
// offset) or the closing byte (done); false for anything else.
func nextMember(b []byte, i int, closing byte) (next int, done, ok bool) {
	i = skipSpace(b, i)
	switch {
	case i >= len(b):
		return 0, false, false
	case b[i] == closing:
		return i + 1, true, true
	case b[i] != ',':
		return 0, false, false
	}
	return skipSpace(b, i+1), false, true
}
