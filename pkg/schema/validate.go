package schema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

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
// JSON gives Constraint "json" with the byte offset, line and column of the
// parse error in Message.
func (s *Schema) ValidateJSON(data []byte) *ValidationError {
	v, perr := decodeJSON(data)
	if perr != nil {
		return perr
	}
	return s.Validate(v)
}

// decodeJSON decodes exactly one JSON value with json.Number numbers
// (jsonvalue.OneExact), an error positioned at the offending byte.
func decodeJSON(data []byte) (any, *ValidationError) {
	var v any
	err := jsonvalue.OneExact(data, &v)
	if err == nil {
		return v, nil
	}
	if te, ok := errors.AsType[*jsonvalue.TrailingError](err); ok {
		return nil, jsonErr(data, te.Offset, fmt.Sprintf("unexpected %q after the top-level value", te.Byte))
	}
	off := int64(len(data))
	if se, ok := errors.AsType[*json.SyntaxError](err); ok {
		off = se.Offset
		// The decoder's offset is just past the offending byte.
		if off > 0 && off <= int64(len(data)) && !errors.Is(err, io.ErrUnexpectedEOF) {
			off--
		}
	}
	msg := err.Error()
	if errors.Is(err, jsonvalue.ErrEmpty) {
		msg = "empty input, expected a JSON value"
	} else if errors.Is(err, io.ErrUnexpectedEOF) {
		msg = "unexpected end of JSON input"
	}
	return nil, jsonErr(data, off, msg)
}

func jsonErr(data []byte, off int64, msg string) *ValidationError {
	before := data[:min(max(off, 0), int64(len(data)))]
	line := 1 + bytes.Count(before, []byte{'\n'})
	col := len(before) - bytes.LastIndexByte(before, '\n')
	return &ValidationError{
		Constraint: "json",
		Message:    fmt.Sprintf("invalid JSON at byte offset %d (line %d, column %d): %s", off, line, col, msg),
	}
}
