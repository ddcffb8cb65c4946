package schema

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// libraryDecode is decodeJSON as it was: encoding/json alone (one value,
// json.Number numbers), nil when the value is not the whole input.
func libraryDecode(data []byte) (any, bool) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, false
	}
	if len(bytes.TrimLeft(data[dec.InputOffset():], " \t\r\n")) != 0 {
		return nil, false
	}
	return v, true
}

var quickDecodeSeeds = []string{
	``, ` `, `{}`, `[]`, `null`, `true`, `false`, `0`, `-0`, `-`, `01`, `1.`, `.5`, `1e`, `1E+`, `-1.5e-300`,
	`123456789012345678901234567890`, `1e999`, `"a"`, `"\u00e9\u20ac"`, `"\ud83d\ude00"`, `"\ud83d"`,
	`"\udc00x"`, `"\u0000"`, `"\x"`, `"\/\b\f\n\r\t\"\\"`, "\"\x01\"", "\"\xff\"", "\"caf\xc3\xa9\"",
	"\"\xe2\x80\xa8\"", `{"a":1,"a":2}`, `{"a":{"b":[1,{"c":null}]}}`, `{"a" : [ 1 , 2 ] }`, `[1,]`,
	`{"a":1,}`, `{a:1}`, `[1 2]`, `{"a":1} x`, `{"a":1}{}`, `{"a":1}  `, "\ufeff{}", `nul`, `truex`,
	`{"\u00e9":"\u00e9"}`, `"\uD834\uDD1E"`,
	`"\u12"`, `"abc`, `{"type":"object","properties":{"n":{"type":"number","minimum":0.1}}}`,
}

// TestQuickDecodeMatchesLibrary: wherever quickDecode answers, its value
// is the library's; where the library fails, quickDecode does too. The
// corpus schemas are decoded quickly (not handed to the library).
func TestQuickDecodeMatchesLibrary(t *testing.T) {
	for _, s := range quickDecodeSeeds {
		checkQuickDecode(t, []byte(s))
	}
	// Deeper than quickMaxDepth: the library's (10000 is its limit).
	for _, n := range []int{quickMaxDepth + 1, 10001} {
		deep := []byte(strings.Repeat(`[`, n) + strings.Repeat(`]`, n))
		if _, ok := quickDecode(deep); ok {
			t.Fatalf("depth %d decoded quickly", n)
		}
		checkQuickDecode(t, deep)
	}
	files, _ := filepath.Glob("testdata/corpus/*/schemas/*.json")
	if len(files) == 0 {
		t.Fatal("no corpus schemas")
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := quickDecode(data); !ok {
			t.Errorf("%s: not decoded quickly", f)
		}
		checkQuickDecode(t, data)
	}
}

func checkQuickDecode(t *testing.T, data []byte) {
	t.Helper()
	got, gok := quickDecode(data)
	want, wok := libraryDecode(data)
	if gok && !wok {
		t.Fatalf("%q: quickDecode accepted what the library refuses: %#v", data, got)
	}
	if gok && !reflect.DeepEqual(got, want) {
		t.Fatalf("%q: quickDecode = %#v, library = %#v", data, got, want)
	}
	// decodeJSON answers as the library does either way.
	v, verr := decodeJSON(data)
	if wok != (verr == nil) || wok && !reflect.DeepEqual(v, want) {
		t.Fatalf("%q: decodeJSON = %#v, %v; library = %#v, %v", data, v, verr, want, wok)
	}
}

func FuzzQuickDecode(f *testing.F) {
	for _, s := range quickDecodeSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) { checkQuickDecode(t, data) })
}

// TestDecodeJSONErrorsUnchanged: the messages for bad JSON are the
// library's (quickDecode hands every failure to it).
func TestDecodeJSONErrorsUnchanged(t *testing.T) {
	cases := map[string]string{
		`{"a":1,}`: `invalid JSON at byte offset 7 (line 1, column 8): invalid character '}' looking for beginning of object key string`,
		`[1 2]`:    `invalid JSON at byte offset 3 (line 1, column 4): invalid character '2' after array element`,
		`{} x`:     `invalid JSON at byte offset 3 (line 1, column 4): unexpected 'x' after the top-level value`,
		``:         `invalid JSON at byte offset 0 (line 1, column 1): empty input, expected a JSON value`,
		`{"a":`:    `invalid JSON at byte offset 5 (line 1, column 6): unexpected end of JSON input`,
	}
	for in, want := range cases {
		_, err := decodeJSON([]byte(in))
		if err == nil || err.Message != want {
			t.Errorf("%q: got %v, want %q", in, err, want)
		}
	}
}

// The common-string table and its index switch must agree entry by entry,
// or the decoder would hand back the wrong keyword.
func TestCommonIndexMatchesTable(t *testing.T) {
	for i, v := range commonBoxed {
		s, ok := v.(string)
		if !ok {
			t.Fatalf("commonBoxed[%d] = %#v, not a string", i, v)
		}
		if got := commonIndex([]byte(s)); got != i {
			t.Errorf("commonIndex(%q) = %d, want %d", s, got, i)
		}
	}
	if got := commonIndex([]byte("no-such-keyword")); got != -1 {
		t.Errorf("commonIndex of an unknown word = %d, want -1", got)
	}
}
