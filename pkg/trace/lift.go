package trace

import (
	"crypto/sha256"
	"encoding"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Before a payload value is marshalled, its big strings are lifted out:
// each string over blobThreshold (valid UTF-8, in NFC) is replaced by the
// blob reference spill would give it, so the marshalled payload is small
// and the string is hashed and written to its blob from where it lies.
// Marshalling a big answer costs several times its size per event that
// holds it (the encoder's growing buffer, then Marshal's copy of it).
//
// The trace and blob bytes are those of marshalling the whole value and
// spilling it: such a string always moves to a blob holding the string
// itself (what spill decodes its encoding to), under the same name, and
// spill still rewrites the rest of the payload. A string that is not
// valid UTF-8 or not NFC stays for marshalPayload and the payload rules,
// as does a string in a slot that cannot hold a reference (a struct field
// of type string) and every value below a type with its own JSON or text
// encoding.

// lifted is one string lifted out of a payload: written to its blob only
// once the event passed the payload rules, as spill would write it.
type lifted struct {
	s    string
	name string // blob-<sha256>.txt
}

var (
	marshalerT  = reflect.TypeFor[json.Marshaler]()
	textMarshal = reflect.TypeFor[encoding.TextMarshaler]()
)

// lifter walks one payload value.
type lifter struct {
	out []lifted
	// onPath holds the pointers, maps and slices being walked, from
	// cycleDepth: a value that holds itself ends the walk (cycle), and
	// encoding/json refuses the payload as it did.
	onPath map[any]bool
	cycle  bool
	// names caches each lifted string's blob name: a value an event
	// holds several times is hashed once.
	names map[string]string
	h     hash.Hash
	buf   []byte
}

// liftStrings returns p with its big strings replaced by blob references
// (containers on the way copied: p itself is not changed) and the strings
// lifted; none lifted returns p as it is. skipKey names a top-level
// member left as it is (an agent call's transcript, which the writer
// keeps as the backend wrote it).
func liftStrings(p any, skipKey string) (any, []lifted) {
	if p == nil {
		return nil, nil
	}
	if _, ok := p.(json.RawMessage); ok {
		return p, nil // spill reads its bytes as they are
	}
	l := &lifter{}
	v, changed := l.value(p, 0, skipKey)
	if !changed || l.cycle {
		return p, nil
	}
	return v, l.out
}

// value is walk for a value held in an interface: the shapes of decoded
// JSON directly, anything else through reflection.
func (l *lifter) value(x any, depth int, skipKey string) (any, bool) {
	if depth > maxScanDepth || l.cycle {
		return x, false
	}
	switch y := x.(type) {
	case nil:
		return x, false
	case string:
		return l.lift(y)
	case map[string]any:
		if y == nil {
			return x, false
		}
		if depth >= cycleDepth {
			key := reflect.ValueOf(y).Pointer()
			if l.enter(key) {
				return x, false
			}
			defer delete(l.onPath, key)
		}
		var out map[string]any
		for k, e := range y {
			if skipKey != "" && k == skipKey {
				continue
			}
			r, changed := l.value(e, depth+1, "")
			if !changed {
				continue
			}
			if out == nil {
				out = maps.Clone(y)
			}
			out[k] = r
		}
		if out == nil {
			return x, false
		}
		return out, true
	case []any:
		if len(y) == 0 {
			return x, false
		}
		if depth >= cycleDepth {
			key := [2]uintptr{reflect.ValueOf(y).Pointer(), uintptr(len(y))}
			if l.enter(key) {
				return x, false
			}
			defer delete(l.onPath, key)
		}
		var out []any
		for i, e := range y {
			r, changed := l.value(e, depth+1, "")
			if !changed {
				continue
			}
			if out == nil {
				out = slices.Clone(y)
			}
			out[i] = r
		}
		if out == nil {
			return x, false
		}
		return out, true
	}
	v, changed := l.walk(reflect.ValueOf(x), depth, skipKey)
	if !changed {
		return x, false
	}
	return v.Interface(), true
}

// walk returns v with its big strings lifted, and whether any was; depth
// bounds the walk as encoding/json bounds its own.
func (l *lifter) walk(v reflect.Value, depth int, skipKey string) (reflect.Value, bool) {
	if depth > maxScanDepth || !v.IsValid() || l.cycle {
		return v, false
	}
	t := v.Type()
	if t.Kind() != reflect.Interface && (t.Implements(marshalerT) || t.Implements(textMarshal) ||
		reflect.PointerTo(t).Implements(marshalerT) || reflect.PointerTo(t).Implements(textMarshal)) {
		return v, false
	}
	switch t.Kind() {
	case reflect.Interface:
		if v.IsNil() {
			return v, false
		}
		r, changed := l.value(v.Interface(), depth+1, skipKey)
		if !changed {
			return v, false
		}
		out := reflect.New(t).Elem()
		out.Set(reflect.ValueOf(r))
		return out, true
	case reflect.Pointer:
		if v.IsNil() || l.onCycle(v.Pointer(), depth) {
			return v, false
		}
		defer l.leave(v.Pointer(), depth)
		r, changed := l.walk(v.Elem(), depth+1, skipKey)
		if !changed {
			return v, false
		}
		out := reflect.New(t.Elem())
		out.Elem().Set(r)
		return out, true
	case reflect.Struct:
		return l.walkStruct(v, depth, skipKey)
	case reflect.Map:
		if v.IsNil() || t.Key().Kind() != reflect.String || l.onCycle(v.Pointer(), depth) {
			return v, false
		}
		defer l.leave(v.Pointer(), depth)
		return l.walkMap(v, depth, skipKey)
	case reflect.Slice:
		if v.IsNil() || v.Len() == 0 || t.Elem().Kind() == reflect.Uint8 { // []byte is base64
			return v, false
		}
		if depth >= cycleDepth {
			key := [2]uintptr{v.Pointer(), uintptr(v.Len())}
			if l.enter(key) {
				return v, false
			}
			defer delete(l.onPath, key)
		}
		return l.walkElems(v, depth)
	case reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 {
			return v, false
		}
		return l.walkElems(v, depth)
	}
	return v, false
}

// walkStruct is walk of a struct: the fields encoding/json writes.
func (l *lifter) walkStruct(v reflect.Value, depth int, skipKey string) (reflect.Value, bool) {
	t := v.Type()
	var out reflect.Value
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if !f.IsExported() || name == "-" || skipKey != "" && (name == skipKey || name == "" && f.Name == skipKey) {
			continue // what encoding/json leaves out, or the member kept
		}
		inner := ""
		if f.Anonymous && name == "" {
			inner = skipKey // its fields are members of this object
		}
		r, changed := l.walk(v.Field(i), depth+1, inner)
		if !changed {
			continue
		}
		if !out.IsValid() {
			out = reflect.New(t).Elem()
			out.Set(v)
		}
		out.Field(i).Set(r)
	}
	if !out.IsValid() {
		return v, false
	}
	return out, true
}

// walkMap is walk of a non-nil map with string keys.
func (l *lifter) walkMap(v reflect.Value, depth int, skipKey string) (reflect.Value, bool) {
	var out reflect.Value
	it := v.MapRange()
	for it.Next() {
		if skipKey != "" && it.Key().String() == skipKey {
			continue
		}
		r, changed := l.walk(it.Value(), depth+1, "")
		if !changed {
			continue
		}
		if !out.IsValid() {
			out = reflect.MakeMapWithSize(v.Type(), v.Len())
			copies := v.MapRange()
			for copies.Next() {
				out.SetMapIndex(copies.Key(), copies.Value())
			}
		}
		out.SetMapIndex(it.Key(), r)
	}
	if !out.IsValid() {
		return v, false
	}
	return out, true
}

// walkElems is walk of a slice's or an array's elements (a changed slice
// is a new one, a changed array a copy).
func (l *lifter) walkElems(v reflect.Value, depth int) (reflect.Value, bool) {
	var out reflect.Value
	for i := range v.Len() {
		r, changed := l.walk(v.Index(i), depth+1, "")
		if !changed {
			continue
		}
		if !out.IsValid() {
			if v.Kind() == reflect.Slice {
				out = reflect.MakeSlice(v.Type(), v.Len(), v.Len())
				reflect.Copy(out, v)
			} else {
				out = reflect.New(v.Type()).Elem()
				out.Set(v)
			}
		}
		out.Index(i).Set(r)
	}
	if !out.IsValid() {
		return v, false
	}
	return out, true
}

// cycleDepth is the depth from which the walk looks for a value holding
// itself, as encoding/json does from 1000 pointers deep.
const cycleDepth = 1000

// enter notes key on the walk's path; a key already on it is a cycle,
// which ends the walk. The walk notes keys from cycleDepth on.
func (l *lifter) enter(key any) bool {
	if l.onPath[key] {
		l.cycle = true
		return true
	}
	if l.onPath == nil {
		l.onPath = map[any]bool{}
	}
	l.onPath[key] = true
	return false
}

// onCycle is enter of the pointer p from cycleDepth on.
func (l *lifter) onCycle(p uintptr, depth int) bool {
	return depth >= cycleDepth && l.enter(p)
}

// leave takes the pointer p off the path onCycle noted it on.
func (l *lifter) leave(p uintptr, depth int) {
	if depth >= cycleDepth {
		delete(l.onPath, p)
	}
}

// lift returns the blob reference of s, as blobRef encodes it, when s is
// one spill would move to a blob holding s itself.
func (l *lifter) lift(s string) (any, bool) {
	if len(s) <= blobThreshold || !utf8.ValidString(s) || !norm.NFC.IsNormalString(s) {
		return nil, false
	}
	name, ok := l.names[s]
	if !ok {
		if l.names == nil {
			l.names = map[string]string{}
		}
		name = "blob-" + l.sum(s) + ".txt"
		l.names[s] = name
		l.out = append(l.out, lifted{s: s, name: name})
	}
	// {"$kitsoki_blob":PATH,"bytes":N}: the keys sort in this order and
	// PATH holds nothing encoding/json escapes.
	return map[string]any{blobKey: promptsDir + "/" + name, "bytes": len(s)}, true
}

// sum is the hex sha256 of s, hashed through a small buffer rather than a
// copy of s.
func (l *lifter) sum(s string) string {
	if l.h == nil {
		l.h, l.buf = sha256.New(), make([]byte, 64<<10)
	}
	l.h.Reset()
	for len(s) > 0 {
		n := copy(l.buf, s)
		l.h.Write(l.buf[:n])
		s = s[n:]
	}
	return hex.EncodeToString(l.h.Sum(nil))
}

// writeLifted writes the blob of each lifted string, as blobRef does:
// once, a file of the same size being the same content.
func (w *Writer) writeLifted(ls []lifted) error {
	for _, b := range ls {
		p := filepath.Join(w.dir, promptsDir, b.name)
		if fi, err := os.Stat(p); err == nil && fi.Size() == int64(len(b.s)) {
			continue
		}
		if err := w.writeSide(promptsDir, b.name, strings.NewReader(b.s)); err != nil {
			return fmt.Errorf("blob %s: %w", p, err)
		}
	}
	return nil
}
