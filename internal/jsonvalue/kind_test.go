package jsonvalue

import (
	"encoding/json"
	"errors"
	"math/big"
	"strings"
	"testing"
)

type num *big.Float // as pkg/flowtest names its numbers

func TestKind(t *testing.T) {
	for _, c := range []struct {
		v    any
		want string
	}{
		{nil, "null"}, {"x", "string"}, {true, "true/false"}, {3.5, "number"}, {int64(3), "number"},
		{uint64(3), "number"}, {json.Number("1e400"), "number"}, {new(big.Float), "number"}, {num(new(big.Float)), "number"},
		{map[string]any{}, "object"}, {map[string]int{}, "object"}, {[]any{}, "list"}, {[]string{}, "list"},
		{struct{}{}, "object"}, {new(int), "number"}, {func() {}, "value"},
	} {
		if got := Kind(c.v); got != c.want {
			t.Errorf("Kind(%#v) = %q, want %q", c.v, got, c.want)
		}
	}
	for kind, want := range map[string]string{"null": "null", "true/false": "true/false", "object": "an object", "list": "a list", "string": "a string", "number": "a number"} {
		if got := WithArticle(kind); got != want {
			t.Errorf("WithArticle(%q) = %q, want %q", kind, got, want)
		}
	}
}

func TestTypeMismatch(t *testing.T) {
	type rec struct {
		I int
		U uint
		S string
		F float64
		L []int
		M map[string]int
		B bool
		P *struct{ Q []string }
	}
	for _, c := range []struct{ in, want string }{
		{`{"I":1.5}`, `field "I": expected a whole number, got the number 1.5`},
		{`{"U":-5}`, `field "U": expected a whole number from 0, got the number -5`},
		{`{"S":3}`, `field "S": expected a string, got a number`},
		{`{"F":1e400}`, `field "F": expected a number a 64-bit float can hold, got the number 1e400`},
		{`{"L":{}}`, `field "L": expected a list, got an object`},
		{`{"M":[]}`, `field "M": expected an object, got a list`},
		{`{"B":"x"}`, `field "B": expected true/false, got a string`},
		{`{"S":false}`, `field "S": expected a string, got true/false`},
		{`{"P":{"Q":7}}`, `field "P.Q": expected a list, got a number`},
		{`[]`, `the document: expected an object, got a list`},
		{`[1e400]`, `the document: expected an object, got a list`},
	} {
		var r rec
		if s, ok := TypeMismatch(json.Unmarshal([]byte(c.in), &r)); !ok || s != c.want {
			t.Errorf("%s: %q (ok %v), want %q", c.in, s, ok, c.want)
		}
	}
	var v any // a number past a float inside a free-form value: no field
	if s, _ := TypeMismatch(json.Unmarshal([]byte(`{"a":[1,-1e400]}`), &v)); s != `the document: expected a number a 64-bit float can hold, got the number -1e400` {
		t.Errorf("out of range in a free-form value: %q", s)
	}
	if _, ok := TypeMismatch(errors.New("json: other")); ok {
		t.Error("an error other than a type mismatch is reported as one")
	}
}

func TestDecodeErrorText(t *testing.T) {
	var r struct{ N int }
	for in, want := range map[string]string{
		"{\n  \"N\": x}": "line 2, column 8: invalid character 'x' looking for beginning of value",
		`{"N": "3"}`:     `field "N": expected a whole number, got a string`,
		`{"N": 1`:        "the JSON ends early (empty or cut short)",
		``:               "the JSON ends early (empty or cut short)",
	} {
		if got := DecodeErrorText([]byte(in), json.Unmarshal([]byte(in), &r)); got != want {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]string{
		" \n":     "the JSON ends early (empty or cut short)",
		"{} \n x": `line 2, column 2: unexpected 'x' after the JSON value (exactly one value expected)`,
		"[1]]":    `line 1, column 4: unexpected ']' after the JSON value (exactly one value expected)`,
	} {
		var v any
		if got := DecodeErrorText([]byte(in), One([]byte(in), &v)); got != want {
			t.Errorf("One(%q): %q, want %q", in, got, want)
		}
	}
	dec := json.NewDecoder(strings.NewReader(""))
	if got := DecodeErrorText(nil, dec.Decode(&r)); got != "the JSON ends early (empty or cut short)" {
		t.Errorf("a decoder at EOF: %q", got)
	}
}
