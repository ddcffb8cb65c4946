package schema

import (
	"errors"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"kitsoki/internal/jsonvalue"
)

// Validate checks an already-decoded JSON value (from json.Unmarshal, with
// or without UseNumber). It returns nil when v satisfies the schema.
func (s *Schema) Validate(v any) *ValidationError {
	if s == nil || s.compiled == nil {
		return &ValidationError{Constraint: "schema", Message: "no compiled schema; build one with Compiler.Compile or CompileBytes"}
	}
	if validationCost(s.compiled, v) > MaxValidationSteps {
		return costError(s.Path)
	}
	err := s.compiled.Validate(v)
	if err == nil {
		return nil
	}
	if ve, ok := errors.AsType[*jsonschema.ValidationError](err); ok {
		return fromLibrary(ve, s.names.name)
	}
	return &ValidationError{Constraint: "json", Message: err.Error()}
}

// ValidateJSON parses data (numbers kept exact) and validates it. Malformed
// JSON gives Constraint "json" with the line and column of the parse error
// in Message (jsonvalue.Reason).
func (s *Schema) ValidateJSON(data []byte) *ValidationError {
	v, perr := decodeJSON(data)
	if perr != nil {
		return perr
	}
	return s.Validate(v)
}

// decodeJSON decodes exactly one JSON value with json.Number numbers
// (jsonvalue.OneExact), an error worded by jsonvalue.Reason.
func decodeJSON(data []byte) (any, *ValidationError) {
	var v any
	if err := jsonvalue.OneExact(data, &v); err != nil {
		return nil, &ValidationError{Constraint: "json", Message: jsonvalue.Reason(data, err)}
	}
	return v, nil
}
