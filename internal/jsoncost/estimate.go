package jsoncost

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
)

// MaxDepth is the deepest nesting walked: encoding/json refuses a
// document nested deeper (its scanner's limit), so one is not decoded.
const MaxDepth = 10000

// Costs of decoding, as encoding/json allocates them. A slice grown one
// element at a time leaves arrays adding up to about five times the final
// one; a map allocates its first group of eight slots with its first
// entry; into an interface every value is boxed.
const (
	sliceGrowth = 5
	anyMap      = 64
	anyEntry    = 80
	mapGroup    = 8
	anyArray    = 24
	anyElem     = 16 * sliceGrowth
	anyScalar   = 16
)

// Ratio and Floor make [Over]'s limit: a report kitsoki wrote, even
// compacted, is estimated at under six times its size.
const (
	Ratio = 12
	Floor = 256 << 20
)

// ErrTooDeep is returned for a document nested deeper than [MaxDepth].
var ErrTooDeep = errors.New("nested deeper than 10000 levels")

// estimate returns an upper estimate of the bytes json.Unmarshal of data
// into a value of type t would allocate besides data itself, stopping as
// soon as it passes limit. A document that is not JSON is an error; so is
// one nested deeper than [MaxDepth]. Members t does not name cost nothing;
// a type with its own UnmarshalJSON is charged its value's bytes.
func estimate(data []byte, t reflect.Type, limit int64) (int64, error) {
	e := &estimator{limit: limit, fields: map[reflect.Type]map[string]reflect.Type{}}
	return e.run(data, t)
}

// Values returns the number of JSON values in data, the document itself
// included, stopping once it passes limit. Errors as estimate's: not
// JSON, or nested deeper than [MaxDepth] ([ErrTooDeep]).
func Values(data []byte, limit int64) (int64, error) {
	e := &estimator{each: 1, limit: limit}
	return e.run(data, nil)
}

// bound is an upper bound of estimate(data, any) counted from bytes alone
// (each '{', '[', ':' and ',' as the container, entry or element it may
// open, every byte as three of a string's: an invalid byte decodes to
// U+FFFD): a document whose bound is within its limit need not be
// walked, which is slow for a large one.
func bound(data []byte) int64 {
	count := func(c byte) int64 { return int64(bytes.Count(data, []byte{c})) }
	return 3*int64(len(data)) + anyScalar +
		count('{')*(anyMap+32*mapGroup+8) +
		count('[')*(anyArray+anyElem+anyScalar) +
		count(':')*(anyEntry+anyScalar) +
		count(',')*(anyElem+anyEntry+anyScalar)
}

// boundFor is an upper bound of estimate(data, t) counted from bytes
// alone, as bound is for any: every JSON value starts the document or
// follows a '[', ',' or ':', each '{' opens at most one, and none is
// charged more than [perValue] of t, besides its text (every byte as three
// of a string's).
func boundFor(data []byte, t reflect.Type) int64 {
	values := int64(1)
	for _, c := range []byte("{[,:") {
		values += int64(bytes.Count(data, []byte{c}))
	}
	return 3*int64(len(data)) + values*perValue(t)
}

// perValue is the most one value decoded into t, or into any type t
// reaches, is charged besides its text: the elements its pointers point to,
// its slot as a slice element or map entry, and the header of the map or
// array it may be, as if it were any (which costs the most) as well.
func perValue(t reflect.Type) int64 {
	var chain, slot, group int64
	seen := map[reflect.Type]bool{}
	var walk func(t reflect.Type)
	walk = func(t reflect.Type) {
		if t == nil || seen[t] {
			return
		}
		seen[t] = true
		var c int64
		for u := t; u.Kind() == reflect.Pointer; u = u.Elem() {
			c += int64(u.Elem().Size())
		}
		chain = max(chain, c)
		switch t.Kind() {
		case reflect.Pointer, reflect.Array:
			walk(t.Elem())
		case reflect.Slice:
			slot = max(slot, int64(t.Elem().Size())*sliceGrowth)
			walk(t.Elem())
		case reflect.Map:
			s := int64(t.Key().Size() + t.Elem().Size())
			slot, group = max(slot, s*2+16), max(group, s*mapGroup+8)
			walk(t.Elem())
		case reflect.Struct:
			for _, ft := range structFields(t) {
				walk(ft)
			}
		}
	}
	walk(t)
	return chain + max(slot, anyElem, anyEntry) + anyScalar + anyArray + anyMap + max(group, 32*mapGroup+8)
}

var errOver = errors.New("over the limit")

type estimator struct {
	dec    *json.Decoder
	each   int64 // charged for every value (Values)
	cost   int64
	limit  int64
	fields map[reflect.Type]map[string]reflect.Type // structFields, once per type
}

var unmarshaler = reflect.TypeFor[json.Unmarshaler]()

// run walks the document data decoded into t.
func (e *estimator) run(data []byte, t reflect.Type) (int64, error) {
	e.dec = json.NewDecoder(bytes.NewReader(data))
	e.dec.UseNumber()
	err := e.value(t, 0)
	if err == errOver {
		return e.cost, nil
	}
	if err == nil {
		// json.Unmarshal refuses anything after the document but space
		if _, next := e.dec.Token(); next != io.EOF {
			err = errors.New("invalid data after the top-level value")
		}
	}
	if err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	return e.cost, err
}

func (e *estimator) add(n int64) error {
	e.cost += n
	if e.cost > e.limit {
		return errOver
	}
	return nil
}

// value walks one JSON value decoded into t (nil: skipped, costs nothing)
// and charges what decoding it allocates beyond t's own slot.
func (e *estimator) value(t reflect.Type, depth int) error {
	if depth > MaxDepth {
		return ErrTooDeep
	}
	start := e.dec.InputOffset()
	tok, err := e.dec.Token()
	if err != nil {
		return err
	}
	if err := e.add(e.each); err != nil {
		return err
	}
	for t != nil && t.Kind() == reflect.Pointer {
		if tok != nil { // null sets the pointer to nil
			if err := e.add(int64(t.Elem().Size())); err != nil {
				return err
			}
		}
		t = t.Elem()
	}
	if t != nil && (reflect.PointerTo(t).Implements(unmarshaler) || t.Implements(unmarshaler)) {
		if err := e.rest(tok, nil, depth); err != nil {
			return err
		}
		return e.add(e.dec.InputOffset() - start)
	}
	return e.rest(tok, t, depth)
}

// rest walks the rest of a value whose first token was tok, decoded into
// t (nil: skipped).
func (e *estimator) rest(tok json.Token, t reflect.Type, depth int) error {
	d, isDelim := tok.(json.Delim)
	if !isDelim {
		return e.scalar(tok, t)
	}
	switch d {
	case '{':
		return e.object(t, depth)
	case '[':
		return e.array(t, depth)
	}
	return fmt.Errorf("unexpected %q", rune(d))
}

// scalar charges a string's bytes (decoded into a string or any) and a
// boxed scalar in an interface.
func (e *estimator) scalar(tok json.Token, t reflect.Type) error {
	if t == nil {
		return nil
	}
	var n int64
	if s, ok := tok.(string); ok && (t.Kind() == reflect.String || t.Kind() == reflect.Interface) {
		n = int64(len(s))
	}
	if t.Kind() == reflect.Interface && tok != nil {
		n += anyScalar
	}
	return e.add(n)
}

func (e *estimator) object(t reflect.Type, depth int) error {
	var fields map[string]reflect.Type
	var elem reflect.Type // map values or any
	var entry, group int64
	if t != nil {
		switch t.Kind() {
		case reflect.Struct:
			fields = e.fields[t]
			if fields == nil {
				fields = structFields(t)
				e.fields[t] = fields
			}
		case reflect.Map:
			slot := int64(t.Key().Size() + t.Elem().Size())
			elem, entry, group = t.Elem(), slot*2+16, slot*mapGroup+8
		case reflect.Interface:
			elem, entry, group = t, anyEntry, 32*mapGroup+8
		}
		if elem != nil {
			if err := e.add(anyMap); err != nil {
				return err
			}
		}
	}
	for first := true; e.dec.More(); first = false {
		if first {
			if err := e.add(group); err != nil {
				return err
			}
		}
		tok, err := e.dec.Token()
		if err != nil {
			return err
		}
		key, _ := tok.(string)
		var ft reflect.Type
		switch {
		case fields != nil:
			ft = lookup(fields, key)
		case elem != nil:
			ft = elem
			if err := e.add(entry + int64(len(key))); err != nil {
				return err
			}
		}
		if err := e.value(ft, depth+1); err != nil {
			return err
		}
	}
	_, err := e.dec.Token() // '}'
	return err
}

func (e *estimator) array(t reflect.Type, depth int) error {
	var elem reflect.Type
	per := int64(0)
	if t != nil {
		switch t.Kind() {
		case reflect.Slice:
			elem, per = t.Elem(), int64(t.Elem().Size())*sliceGrowth
		case reflect.Array:
			elem = t.Elem()
		case reflect.Interface:
			elem, per = t, anyElem
			if err := e.add(anyArray); err != nil {
				return err
			}
		}
	}
	for e.dec.More() {
		if err := e.add(per); err != nil {
			return err
		}
		if err := e.value(elem, depth+1); err != nil {
			return err
		}
	}
	_, err := e.dec.Token() // ']'
	return err
}

// structFields maps a struct's JSON member names (encoding/json's: the
// json tag's name, else the field name; embedded structs' members
// promoted) to their types.
func structFields(t reflect.Type) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	for f := range t.Fields() {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" && f.Tag.Get("json") == "-" {
			continue
		}
		if f.Anonymous && name == "" {
			ft := f.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				for k, v := range structFields(ft) {
					if _, ok := out[k]; !ok {
						out[k] = v
					}
				}
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		out[name] = f.Type
	}
	return out
}

// lookup finds a member as encoding/json does: the exact name, else one
// equal under case folding.
func lookup(fields map[string]reflect.Type, key string) reflect.Type {
	if t, ok := fields[key]; ok {
		return t
	}
	for k, t := range fields {
		if strings.EqualFold(k, key) {
			return t
		}
	}
	return nil
}

// Over reports whether data, decoded into any, would take more than
// limit, Ratio times its size and at least floor (0: [Floor]), so that a
// small document is never refused for its shape. The bound counted from
// bytes comes first, so that a document of few containers for its bytes
// is not walked. For a document, over is exactly the walk's verdict at limit;
// what is not JSON (or nests deeper than [MaxDepth]) may come out
// either way, and its decoder refuses it.
func Over(data []byte, floor int64) (limit int64, over bool) {
	return overWith(data, reflect.TypeFor[any](), floor, bound)
}

// OverFor is [Over] for data decoded into a value of type t (members t
// does not name cost nothing), boundFor first.
func OverFor(data []byte, t reflect.Type, floor int64) (limit int64, over bool) {
	return overWith(data, t, floor, func(data []byte) int64 { return boundFor(data, t) })
}

func overWith(data []byte, t reflect.Type, floor int64, upper func([]byte) int64) (limit int64, over bool) {
	limit = max(int64(len(data))*Ratio, cmp.Or(floor, Floor))
	if upper(data) <= limit {
		return limit, false
	}
	cost, err := estimate(data, t, limit)
	return limit, err == nil && cost > limit
}
