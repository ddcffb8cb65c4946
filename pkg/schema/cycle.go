package schema

import (
	"fmt"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// refCycle is the one check of a schema the validator would refuse on
// every value, shared by validate (the schema rule), an agent call and
// eval (each compiles through compileDoc): a reference cycle the root
// reaches without reading into the value ({"$ref":"#"}, two $defs
// referring to each other, a $ref back to the root inside allOf). The
// library compiles such a schema, then fails every validation with
// "causing reference cycle", so every submission is schema_invalid.
//
// Only the keywords whose failure fails the value whatever it is are
// followed: $ref, $dynamicRef, $recursiveRef and allOf. The library
// counts a cycle under anyOf or oneOf as that branch failing (another
// may match), swallows one under not or if, applies then, else and the
// dependent schemas only to some values, and properties and items read
// into the value (probed on the library: TestRefCycle).
func refCycle(root *jsonschema.Schema, names docNames) error {
	const (
		open = 1 + iota
		done
	)
	state := map[*jsonschema.Schema]int{}
	var path []*jsonschema.Schema
	var found []*jsonschema.Schema
	var walk func(s *jsonschema.Schema)
	walk = func(s *jsonschema.Schema) {
		if s == nil || found != nil {
			return
		}
		switch state[s] {
		case open:
			for i, p := range path {
				if p == s {
					found = append(append([]*jsonschema.Schema{}, path[i:]...), s)
				}
			}
			return
		case done:
			return
		}
		state[s] = open
		path = append(path, s)
		always(s, walk)
		path = path[:len(path)-1]
		state[s] = done
	}
	walk(root)
	if found == nil {
		return nil
	}
	file, ptr := names.describe(found[0].Location)
	route := ""
	for i, s := range found {
		if i > 0 {
			route += " -> "
		}
		route += fmt.Sprintf("%q", names.name(s.Location))
	}
	return &CompileError{File: file, Pointer: ptr, Message: fmt.Sprintf(
		"the schema refers back to itself without reading into the value (%s): a reference cycle the validator refuses on every value, so every submission checked against it fails schema_invalid; point the $ref at a subschema under properties or items, or drop it",
		route)}
}

// always calls f with each subschema s applies to the same value,
// whatever that value is, whose failure fails s.
func always(s *jsonschema.Schema, f func(*jsonschema.Schema)) {
	for _, sub := range [...]*jsonschema.Schema{s.Ref, s.RecursiveRef} {
		if sub != nil {
			f(sub)
		}
	}
	if s.DynamicRef != nil && s.DynamicRef.Ref != nil {
		f(s.DynamicRef.Ref)
	}
	for _, sub := range s.AllOf {
		f(sub)
	}
}
