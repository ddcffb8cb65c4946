package jsonvalue

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
)

// Reason words an error of decoding data with encoding/json (or [OneExact]'s) in the file's
// own terms, for a message that already names the file: where (line and
// column, and the member path for a value of the wrong type) and what JSON
// was expected, never a Go type name. An error it does not know is
// returned as written, less encoding/json's "json: " prefix.
func Reason(data []byte, err error) string {
	if len(bytes.TrimSpace(data)) == 0 || errors.Is(err, ErrEmpty) {
		return "it is empty: no JSON value"
	}
	if te, ok := errors.AsType[*TrailingError](err); ok {
		return fmt.Sprintf("%s: %s", At(data, te.Offset), te.Error())
	}
	if se, ok := errors.AsType[*json.SyntaxError](err); ok {
		if se.Error() == "unexpected end of JSON input" {
			return fmt.Sprintf("%s: the JSON ends early (cut short?)", At(data, int64(len(data))))
		}
		// Offset is just past the byte that broke the syntax
		return fmt.Sprintf("%s: %s", At(data, se.Offset-1), strings.TrimPrefix(se.Error(), "json: "))
	}
	if te, ok := errors.AsType[*json.UnmarshalTypeError](err); ok {
		what, at := te.Field, At(data, valueStart(data, te.Offset))
		if what == "" {
			what = "the top level"
		}
		if number, big := NumberOutOfRange(err); big {
			return fmt.Sprintf("%s: %s: the number %s is out of range of a 64-bit float", at, what, number)
		}
		return fmt.Sprintf("%s: %s: expected %s, got %s", at, what, Expected(te.Type), got(te.Value))
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return fmt.Sprintf("%s: the JSON ends early (cut short?)", At(data, int64(len(data))))
	}
	return strings.TrimPrefix(err.Error(), "json: ")
}

// At is the line and column (from 1) of byte offset off in data, as
// "line L, column C"; an offset outside data is clamped to it.
func At(data []byte, off int64) string {
	b := data[:max(0, min(off, int64(len(data))))]
	return fmt.Sprintf("line %d, column %d", bytes.Count(b, []byte{'\n'})+1, len(b)-bytes.LastIndexByte(b, '\n'))
}

// got names the JSON value a json.UnmarshalTypeError's Value describes
// ("array", "number 1.5", ...).
func got(value string) string {
	kind, number, _ := strings.Cut(value, " ")
	switch {
	case number != "":
		return "the number " + number
	case kind == "array":
		return "a list"
	case kind == "object":
		return "an object"
	case kind == "bool":
		return "a boolean"
	}
	return "a " + kind
}

// valueStart is the offset of the first byte of the value a
// json.UnmarshalTypeError's Offset follows: encoding/json gives the offset
// just past an object's or list's opening bracket, and just past the end of
// a string, number or literal.
func valueStart(data []byte, off int64) int64 {
	if len(data) == 0 {
		return 0
	}
	i := min(max(off, 1), int64(len(data))) - 1
	switch c := data[i]; {
	case c == '{' || c == '[':
		return i
	case c == '"':
		for j := i - 1; j >= 0; j-- {
			if data[j] != '"' {
				continue
			}
			k := j
			for k > 0 && data[k-1] == '\\' {
				k--
			}
			if (j-k)%2 == 0 { // an even run of backslashes: the opening quote
				return j
			}
		}
		return i
	}
	for i > 0 && bytes.IndexByte([]byte("0123456789+-.eEtruefalsn"), data[i-1]) >= 0 {
		i--
	}
	return i
}

// Expected names the JSON a Go value of type t is decoded from.
func Expected(t reflect.Type) string {
	if t == nil {
		return "a value"
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return "an integer"
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return "an integer of 0 or more"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Slice, reflect.Array:
		if t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Uint8 {
			return "a base64 string"
		}
		return "a list"
	case reflect.Struct, reflect.Map:
		return "an object"
	}
	return "a value"
}
