package jsonvalue

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// oneFloat is one with numbers read as float64.
func oneFloat(data []byte, v any) error { return one(data, v, false) }

// one (numbers as float64, as MaskEncoded reads) and OneExact take
// exactly one value: whitespace around it is fine, anything after it
// (garbage, a second value, a stray closing bracket, which
// json.Decoder.More does not report) is an error naming what came.
func TestOneRejectsWhatFollowsTheValue(t *testing.T) {
	for _, dec := range []func([]byte, any) error{oneFloat, OneExact} {
		for in, want := range map[string]string{
			"{\"a\":1} \r\n\t":     "",
			" [1,2] ":              "",
			`{"a":1} x`:            `unexpected 'x' after the JSON value (exactly one value expected)`,
			`{"a":1} {"b":2}`:      `unexpected '{' after the JSON value`,
			"{\"a\":1}\n{\"b\":2}": `unexpected '{' after the JSON value`,
			`{"a":1}}`:             `unexpected '}' after the JSON value`,
			`[1]]`:                 `unexpected ']' after the JSON value`,
			`1 2`:                  `unexpected '2' after the JSON value`,
			"":                     "no JSON value (the input is empty)",
			"  \n":                 "no JSON value (the input is empty)",
			`{"a":`:                "unexpected EOF",
			`{"a" 1}`:              "invalid character '1' after object key",
		} {
			var v any
			err := dec([]byte(in), &v)
			switch {
			case want == "" && err != nil:
				t.Errorf("%q: %v", in, err)
			case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
				t.Errorf("%q: got %v, want %q", in, err, want)
			}
		}
	}
}

// Numbers: one reads float64 (a number past its range fails, a long
// integer loses digits); OneExact keeps every digit as a json.Number.
func TestOneNumbers(t *testing.T) {
	var v any
	if err := oneFloat([]byte(`1e400`), &v); err == nil || !strings.Contains(err.Error(), "cannot unmarshal number 1e400") {
		t.Fatalf("one 1e400: %v, %v", v, err)
	}
	if err := OneExact([]byte(`1e400`), &v); err != nil || v != json.Number("1e400") {
		t.Fatalf("OneExact 1e400: %#v, %v", v, err)
	}
	if err := oneFloat([]byte(`{"n":12345678901234567891}`), &v); err != nil || v.(map[string]any)["n"] != 12345678901234567891.0 {
		t.Fatalf("one long integer: %#v, %v", v, err)
	}
	if err := OneExact([]byte(`{"n":12345678901234567891}`), &v); err != nil || v.(map[string]any)["n"] != json.Number("12345678901234567891") {
		t.Fatalf("OneExact long integer: %#v, %v", v, err)
	}
	if err := OneExact([]byte(`[9007199254740993, 1.0]`), &v); err != nil {
		t.Fatal(err)
	}
	if got := Int64s(v).([]any); got[0] != int64(9007199254740993) || got[1] != 1.0 {
		t.Fatalf("OneExact then Int64s: %#v", got)
	}
}

// Into a struct the same rules hold, and numbers follow the field types.
func TestOneIntoStruct(t *testing.T) {
	var s struct {
		N int64          `json:"n"`
		M map[string]any `json:"m"`
	}
	if err := OneExact([]byte(`{"n": 9007199254740993, "m": {"x": 2}} `), &s); err != nil || s.N != 9007199254740993 || s.M["x"] != json.Number("2") {
		t.Fatalf("%+v, %v", s, err)
	}
	if err := OneExact([]byte(`{"n": 1} {"n": 2}`), &s); err == nil {
		t.Fatal("a second object was accepted")
	}
}

// The errors callers tell apart: ErrEmpty, and a *TrailingError at the
// offset of the first byte after the value.
func TestOneErrors(t *testing.T) {
	var v any
	if err := OneExact([]byte(" \n"), &v); !errors.Is(err, ErrEmpty) {
		t.Errorf("empty: %v, want ErrEmpty", err)
	}
	err := OneExact([]byte("[1] \n]"), &v)
	te, ok := errors.AsType[*TrailingError](err)
	if !ok || te.Offset != 5 || te.Byte != ']' {
		t.Errorf("trailing: %#v, want offset 5, byte ']'", err)
	}
}

// NumberOutOfRange picks out a number past float64 read into an
// interface, deep in a map or in a float field, and nothing else: a
// string for a number, a fraction for an int, a syntax error.
func TestNumberOutOfRange(t *testing.T) {
	var field struct {
		F float64 `json:"f"`
		I int     `json:"i"`
	}
	for _, c := range []struct {
		in   string
		into any
		want string
	}{
		{`{"a":[1,-1e400]}`, new(any), "-1e400"},
		{`1e999`, new(any), "1e999"},
		{`{"f":2e308}`, &field, "2e308"},
		{`{"f":"x"}`, &field, ""},
		{`{"i":1.5}`, &field, ""},
		{`{"i":1e400}`, &field, ""},
		{`{"a":}`, new(any), ""},
	} {
		got, ok := NumberOutOfRange(json.Unmarshal([]byte(c.in), c.into))
		if got != c.want || ok != (c.want != "") {
			t.Errorf("%s: %q %v, want %q", c.in, got, ok, c.want)
		}
	}
	if _, ok := NumberOutOfRange(nil); ok {
		t.Error("nil error reported as a number out of range")
	}
}
