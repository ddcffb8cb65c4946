package jsonvalue

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"kitsoki/internal/testing/gotype"
)

// reasonTarget has a member of each kind Expected names.
type reasonTarget struct {
	List  []int
	N     int
	U     uint
	F     float64
	S     string
	B     bool
	Bytes []byte
	Obj   struct{ D bool }
	M     map[string]int
	P     *[]string
	Any   any
}

// Reason says where and what JSON was expected, in the file's terms: the
// place is the value's first byte, never a Go type name.
func TestReasonNamesPlaceAndJSON(t *testing.T) {
	for in, want := range map[string]string{
		"{\"List\":{}}":              "line 1, column 9: List: expected a list, got an object",
		"{\"List\":[1,\n  \"x\"]}":   "line 2, column 3: List: expected an integer, got a string",
		"{\"N\":\"a\\\\\\\"b\\\\\"}": "line 1, column 6: N: expected an integer, got a string",
		"{\"N\":1.5}":                "line 1, column 6: N: expected an integer, got the number 1.5",
		"{\"U\":-1}":                 "line 1, column 6: U: expected an integer of 0 or more, got the number -1",
		"{\"F\":1e400}":              "line 1, column 6: F: the number 1e400 is out of range of a 64-bit float",
		"{\"S\":true}":               "line 1, column 6: S: expected a string, got a boolean",
		"{\"B\":null, \"B\":0}":      "line 1, column 16: B: expected true or false, got a number",
		"{\"Bytes\":1}":              "line 1, column 10: Bytes: expected a base64 string, got a number",
		"{\"Obj\":{\"D\":[]}}":       "line 1, column 13: Obj.D: expected true or false, got a list",
		"{\"M\":{\"a\":\"b\"}}":      "line 1, column 11: M: expected an integer, got a string",
		"{\"P\":[{}]}":               "line 1, column 7: P: expected a string, got an object",
		"[1]":                        "line 1, column 1: the top level: expected an object, got a list",
		"{\"N\"  1}":                 "line 1, column 7: invalid character '1' after object key",
		"{} x":                       "line 1, column 4: invalid character 'x' after top-level value",
		"{\"List\":[1,\n":            "line 2, column 1: the JSON ends early (cut short?)",
		" \n\t":                      "it is empty: no JSON value",
	} {
		var v reasonTarget
		err := json.Unmarshal([]byte(in), &v)
		if err == nil {
			t.Fatalf("%q decoded", in)
		}
		if got := Reason([]byte(in), err); got != want {
			t.Errorf("Reason(%q)\n got %s\nwant %s", in, got, want)
		}
	}
}

// FuzzReason: any bytes decoded into a value of every kind: the reason for
// a refusal names no Go type, stays on one line, and a place it gives is
// inside the file.
func FuzzReason(f *testing.F) {
	for _, s := range []string{`{"List":{}}`, `{"N":"x"}`, `{"M":{"a":[]}}`, `{"Obj":{"D":1}}`, "{\n\"F\":1e999}", `[`, `"\"`, ``} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var v reasonTarget
		err := json.Unmarshal(data, &v)
		if err == nil {
			return
		}
		r := Reason(data, err)
		if n := gotype.Named(r, data); n != "" || strings.Contains(r, "jsonvalue.") || strings.Contains(r, "uint8") {
			t.Fatalf("%q: reason %q names a Go type (%s)", data, r, n)
		}
		if strings.Contains(r, "\n") {
			t.Fatalf("%q: reason %q is more than one line", data, r)
		}
		var line, col int
		if _, serr := fmt.Sscanf(r, "line %d, column %d:", &line, &col); serr == nil {
			lines := strings.Split(string(data), "\n")
			if line < 1 || line > len(lines) || col < 1 || col > len(lines[line-1])+1 {
				t.Fatalf("%q: reason %q places it outside the file", data, r)
			}
		}
	})
}
