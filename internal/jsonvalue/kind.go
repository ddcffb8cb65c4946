package jsonvalue

import (
	"encoding/json"
	"errors"
	"math/big"
	"reflect"
	"strconv"
	"strings"
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

// TypeMismatch words encoding/json's refusal of a value of the wrong type
// in [Kind]'s words, naming the field, what it holds and what the
// document has: `field "runs.hits": expected a whole number, got the
// number 1.5`, `the document: expected an object, got a list`. ok is
// false for any other error.
func TypeMismatch(err error) (text string, ok bool) {
	te, isType := errors.AsType[*json.UnmarshalTypeError](err)
	if !isType {
		return "", false
	}
	where := "the document"
	if te.Field != "" {
		where = "field " + strconv.Quote(te.Field)
	}
	got := WithArticle(decodedKind(te.Value))
	if n, isNumber := strings.CutPrefix(te.Value, "number "); isNumber {
		got = "the number " + n
	}
	return where + ": expected " + targetPhrase(te.Type) + ", got " + got, true
}

// targetPhrase names what a Go type holds, narrowed for numbers: a number
// refused by a number field is refused for its value (a fraction or a
// sign for an integer, a magnitude for a float).
func targetPhrase(t reflect.Type) string {
	if t == nil {
		return "a value of another type"
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return "a whole number"
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return "a whole number from 0"
	case reflect.Float32, reflect.Float64:
		return "a number a 64-bit float can hold"
	}
	return WithArticle(kindOf(t))
}

// decodedKind is encoding/json's word for what it read ("array", "bool",
// "number 1e400") as a [Kind].
func decodedKind(value string) string {
	word, _, _ := strings.Cut(value, " ")
	switch word {
	case "array":
		return KindList
	case "bool":
		return KindBool
	case KindObject, KindString, KindNumber, KindNull:
		return word
	}
	return "value"
}
