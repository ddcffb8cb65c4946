package jsonvalue

import (
	"encoding/json"
	"math/big"
	"reflect"
)

// The JSON types in a story author's words: what every "got X, want Y"
// message names, never a Go type (map[string]interface {}, float64).
const (
	KindNull   = "null"
	KindString = "string"
	KindNumber = "number"
	KindBool   = "true/false"
	KindObject = "object"
	KindList   = "list"
)

// Kind names the JSON type of a decoded value (JSON's or YAML's: any Go
// number is a number (json.Number and math/big's too), any map an
// object, any slice a list).
func Kind(v any) string {
	switch v.(type) {
	case nil:
		return KindNull
	case string:
		return KindString
	case bool:
		return KindBool
	case json.Number:
		return KindNumber
	}
	return kindOf(reflect.TypeOf(v))
}

// RawKind names the JSON type of an encoded value by its first byte (raw
// is valid JSON, as a [json.RawMessage] member decoded it; empty is null).
func RawKind(raw []byte) string {
	if len(raw) == 0 {
		return KindNull
	}
	switch raw[0] {
	case '"':
		return KindString
	case '{':
		return KindObject
	case '[':
		return KindList
	case 't', 'f':
		return KindBool
	case 'n':
		return KindNull
	}
	return KindNumber
}

// kindOf names the JSON type a Go type holds (a pointer: its element's).
func kindOf(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == reflect.TypeFor[big.Float]() || t == reflect.TypeFor[big.Int]() {
		return KindNumber
	}
	switch t.Kind() {
	case reflect.String:
		return KindString
	case reflect.Bool:
		return KindBool
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64:
		return KindNumber
	case reflect.Slice, reflect.Array:
		return KindList
	case reflect.Map, reflect.Struct:
		return KindObject
	}
	return "value"
}

// WithArticle is kind as a phrase: "a string", "an object", "a list";
// "null" and "true/false" stand alone.
func WithArticle(kind string) string {
	switch kind {
	case KindNull, KindBool:
		return kind
	case KindObject:
		return "an object"
	}
	return "a " + kind
}
