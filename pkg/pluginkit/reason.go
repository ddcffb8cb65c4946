package pluginkit

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"time"
	"unicode/utf8"
)

// The words a refused request line is answered with, in JSON's terms (a
// string, a number, an object, a list, true/false, null) and the member
// path within the line, never a Go type: a plugin author reads them, in
// any language. pluginkit imports no kitsoki package, so this is its own
// small copy of kitsoki's wording (internal/jsonvalue's Reason).

// parseReason words an error of decoding a request line.
func parseReason(err error) string {
	if se, ok := errors.AsType[*json.SyntaxError](err); ok {
		// Offset is just past the byte that broke the syntax
		return fmt.Sprintf("column %d: %s", max(se.Offset, 1), strings.TrimPrefix(se.Error(), "json: "))
	}
	return typeReason(err, "")
}

// paramsReason words an error of decoding params as a [Request].
func paramsReason(params json.RawMessage, err error) string {
	var probe struct {
		Deadline json.RawMessage `json:"deadline"`
	}
	if json.Unmarshal(params, &probe) == nil && len(probe.Deadline) > 0 {
		if (&time.Time{}).UnmarshalJSON(probe.Deadline) != nil {
			return fmt.Sprintf("params.deadline: expected a string holding an RFC 3339 time (\"2026-01-02T15:04:05Z\"), got %s", gotValue(probe.Deadline))
		}
	}
	return typeReason(err, "params")
}

// typeReason words a value of the wrong JSON type at its member path
// under prefix (the line itself when both are empty).
func typeReason(err error, prefix string) string {
	var te *json.UnmarshalTypeError
	if !errors.As(err, &te) {
		return strings.TrimPrefix(err.Error(), "json: ")
	}
	path := strings.Trim(prefix+"."+te.Field, ".")
	if path == "" {
		path = "the request"
	}
	return fmt.Sprintf("%s: expected %s, got %s", path, expected(te.Type), gotKind(te.Value))
}

// expected names the JSON a Go value of type t is decoded from.
func expected(t reflect.Type) string {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch {
	case t == nil:
		return "a value"
	case t == reflect.TypeFor[time.Time]():
		return "a string holding an RFC 3339 time"
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true/false"
	case reflect.Slice, reflect.Array:
		return "a list"
	case reflect.Struct, reflect.Map:
		return "an object"
	}
	return "a value"
}

// gotKind names the JSON value an UnmarshalTypeError's Value describes
// ("array", "number 1.5", ...).
func gotKind(value string) string {
	kind, number, _ := strings.Cut(value, " ")
	switch {
	case number != "":
		return "the number " + number
	case kind == "array":
		return "a list"
	case kind == "object":
		return "an object"
	case kind == "bool":
		return "true/false"
	}
	return "a " + kind
}

// gotValue names a raw JSON value: a string or number as written (cut to
// 64 bytes), any other by its kind.
func gotValue(raw json.RawMessage) string {
	s := string(raw)
	switch s[0] {
	case '{':
		return "an object"
	case '[':
		return "a list"
	case 't', 'f':
		return "true/false"
	case 'n':
		return "null"
	}
	if len(s) > 64 {
		i := 64
		for i > 0 && !utf8.RuneStart(s[i]) {
			i--
		}
		s = s[:i] + "…"
	}
	if s[0] == '"' {
		return "the string " + s
	}
	return "the number " + s
}
