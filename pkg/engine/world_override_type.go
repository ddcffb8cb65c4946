package engine

import (
	"fmt"
	"math"

	"kitsoki/internal/jsonvalue"
	"kitsoki/pkg/story"
)

// overrideKind is the kind (story.WorldVar.Kind: int, float, bool, string,
// object, list; "" for anything) a --world or --world-file value of a key
// declared typ must have.
func overrideKind(typ string) string {
	return (&story.WorldVar{Type: typ}).Kind()
}

// overrideMismatch describes v when a key of kind cannot hold it ("" when
// it can). Null is always accepted: it leaves the key unset, as a null
// default does.
func overrideMismatch(v any, kind string) string {
	if v == nil || kind == "" {
		return ""
	}
	got := jsonvalue.Kind(v)
	want := map[string]string{"int": jsonvalue.KindNumber, "float": jsonvalue.KindNumber,
		"bool": jsonvalue.KindBool, "string": jsonvalue.KindString,
		"object": jsonvalue.KindObject, "list": jsonvalue.KindList}[kind]
	if got == want {
		if kind != "int" || isWhole(v) {
			return ""
		}
		return fmt.Sprintf("%v is not a whole number", v)
	}
	switch got {
	case jsonvalue.KindString:
		return fmt.Sprintf("%q is a string", v)
	case jsonvalue.KindObject:
		return "a mapping"
	case jsonvalue.KindList:
		return "a list"
	case jsonvalue.KindBool:
		return fmt.Sprintf("%v is true/false", v)
	}
	return fmt.Sprintf("%v is a number", v)
}

// isWhole reports whether a decoded number is an integer.
func isWhole(v any) bool {
	switch t := v.(type) {
	case float64:
		return t == math.Trunc(t) && !math.IsInf(t, 0)
	case float32:
		return float64(t) == math.Trunc(float64(t)) && !math.IsInf(float64(t), 0)
	}
	return true
}

// overrideFix is how to write a value of kind, on the command line
// (flag) or in a --world-file.
func overrideFix(key, kind string, flag bool) string {
	if flag {
		return map[string]string{
			"object": fmt.Sprintf("write a YAML/JSON mapping: --world '%s={name: value}'", key),
			"list":   fmt.Sprintf("write a YAML/JSON list: --world '%s=[a, b]'", key),
			"int":    fmt.Sprintf("write an integer: --world %s=3", key),
			"float":  fmt.Sprintf("write a number: --world %s=0.5", key),
			"bool":   fmt.Sprintf("write true or false: --world %s=true", key),
		}[kind]
	}
	return map[string]string{
		"object": fmt.Sprintf("write a mapping (%s: {name: value})", key),
		"list":   fmt.Sprintf("write a list (%s: [a, b])", key),
		"int":    fmt.Sprintf("write an integer (%s: 3)", key),
		"float":  fmt.Sprintf("write a number (%s: 0.5)", key),
		"bool":   fmt.Sprintf("write true or false (%s: true)", key),
		"string": fmt.Sprintf("quote it (%s: \"text\")", key),
	}[kind]
}

// checkOverride refuses a --world (flag) or --world-file value v of key
// that the story's declared type cannot hold: the run would start with
// a number in an object key, and the first guard or template reading a
// field of it fails the turn far from the flag that put it there.
func checkOverride(from, key, typ string, v any, flag bool) error {
	kind := overrideKind(typ)
	what := overrideMismatch(v, kind)
	if what == "" {
		return nil
	}
	if flag {
		from += " " + key
	} else {
		from += ": " + key
	}
	return fmt.Errorf("%s: %s, and the story declares %s type: %s; %s, or leave the key out to keep its default",
		from, what, key, typ, overrideFix(key, kind, flag))
}
