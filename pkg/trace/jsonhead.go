package trace

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// jsonHead is the start of json.Marshal(v), byte for byte, for the values
// decodeNumbers makes (maps, slices, strings, json.Number, bool, nil):
// whole, or cut once it holds more than limit bytes (whole is false). A
// member of a wide map or a long string costs only what is written: the
// map's first keys are picked without sorting them all, a string is
// escaped only as far as it is shown. ok is false for a value of another
// kind (the caller marshals it whole).
func jsonHead(v any, limit int) (head string, whole, ok bool) {
	w := &headWriter{limit: limit}
	if !w.value(v) {
		return "", false, false
	}
	return w.b.String(), !w.full(), true
}

// headWriter collects JSON text until it holds more than limit bytes.
type headWriter struct {
	b     strings.Builder
	limit int
}

func (w *headWriter) full() bool { return w.b.Len() > w.limit }

// room is how many more bytes the writer takes before it is full.
func (w *headWriter) room() int { return w.limit + 1 - w.b.Len() }

// value writes v; false for a kind json.Marshal may render otherwise.
func (w *headWriter) value(v any) bool {
	switch x := v.(type) {
	case nil:
		w.b.WriteString("null")
	case bool:
		w.b.WriteString(strconv.FormatBool(x))
	case json.Number:
		if !json.Valid([]byte(x)) { // json.Marshal refuses it: the caller decides
			return false
		}
		w.b.WriteString(string(x))
	case string:
		w.str(x)
	case []any:
		return w.array(x)
	case map[string]any:
		return w.object(x)
	default:
		return false
	}
	return true
}

// str writes s as json.Marshal quotes it, escaping no more of s than the
// writer has room for: each byte of s is at least one byte of output (so
// the opening quote and room bytes fill it), and a cut at a rune start
// leaves every rune before it escaped as in the whole.
func (w *headWriter) str(s string) {
	cut := len(s)
	if n := w.room(); cut > n {
		cut = n
		for cut < len(s) && !utf8.RuneStart(s[cut]) {
			cut++ // past the rune: the quote and cut bytes fill the room
		}
	}
	b, _ := json.Marshal(s[:cut]) // a string always marshals
	if cut < len(s) {
		b = b[:len(b)-1] // no closing quote: the string goes on
	}
	w.b.Write(b)
}

func (w *headWriter) array(a []any) bool {
	w.b.WriteByte('[')
	for i, e := range a {
		if w.full() {
			return true
		}
		if i > 0 {
			w.b.WriteByte(',')
		}
		if !w.value(e) {
			return false
		}
	}
	if !w.full() { // a cut string stays open
		w.b.WriteByte(']')
	}
	return true
}

// object writes m's members in json.Marshal's order (keys sorted by
// bytes). Each member is at least `"":0` plus a comma, so no more than
// room/4+1 of them fit: only that many smallest keys are picked.
func (w *headWriter) object(m map[string]any) bool {
	w.b.WriteByte('{')
	keys := smallestKeys(m, w.room()/4+1)
	for i, k := range keys {
		if w.full() {
			return true
		}
		if i > 0 {
			w.b.WriteByte(',')
		}
		w.str(k)
		if w.full() {
			return true
		}
		w.b.WriteByte(':')
		if !w.value(m[k]) {
			return false
		}
	}
	if len(keys) < len(m) {
		// Only when n keys ran out before the room did, which their
		// minimum size rules out; kept whole rather than guessed.
		return w.full()
	}
	if !w.full() { // a cut string stays open
		w.b.WriteByte('}')
	}
	return true
}

// smallestKeys returns m's n smallest keys in order (all of them, sorted,
// when m has no more than n), reading m once and keeping n keys.
func smallestKeys(m map[string]any, n int) []string {
	keys := make([]string, 0, min(len(m), n))
	for k := range m {
		if len(keys) == n && k >= keys[n-1] {
			continue
		}
		i, _ := slices.BinarySearch(keys, k)
		if len(keys) == n {
			keys = keys[:n-1]
		}
		keys = slices.Insert(keys, i, k)
	}
	return keys
}
