package schema

import (
	"fmt"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// neverValid is the second check of a schema the validator refuses on
// every value, beside refCycle and shared with it by validate (the schema
// rule), an agent call and eval (each compiles through compileDoc): the
// root is the schema false, or reaches one through the keywords whose
// failure fails the value whatever it is ($ref, $dynamicRef,
// $recursiveRef, allOf: always), or a not: true on the way. The library
// compiles it, then fails every validation ("false schema", "not
// failed"), so every submission is schema_invalid. A false under
// properties, items, anyOf or if (additionalProperties: false, the usual
// one) fails only some values and is kept.
func neverValid(root *jsonschema.Schema, names docNames) error {
	seen := map[*jsonschema.Schema]bool{}
	var found *jsonschema.Schema
	var walk func(s *jsonschema.Schema)
	walk = func(s *jsonschema.Schema) {
		if s == nil || found != nil || seen[s] {
			return
		}
		seen[s] = true
		if (s.Bool != nil && !*s.Bool) || (s.Not != nil && s.Not.Bool != nil && *s.Not.Bool) {
			found = s
			return
		}
		always(s, walk)
	}
	walk(root)
	if found == nil {
		return nil
	}
	file, ptr := names.describe(found.Location)
	what := "is false"
	if found.Bool == nil {
		what = "says not: true"
	}
	where := "the schema " + what
	if found != root {
		where = fmt.Sprintf("the schema applies %q to every value, and it %s", names.name(found.Location), what)
	}
	return &CompileError{File: file, Pointer: ptr, Message: where + ": the validator refuses every value, so every submission checked against it fails schema_invalid; describe the answer you want (for example {\"type\":\"object\"}), or drop the schema"}
}
