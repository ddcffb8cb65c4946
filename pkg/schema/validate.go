package schema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// Validate checks an already-decoded JSON value (from json.Unmarshal, with
// or without UseNumber). It returns nil when v satisfies the schema.
func (s *Schema) Validate(v any) *ValidationError {
	if s == nil || s.root == nil {
		return &ValidationError{Constraint: "schema", Message: "no compiled schema; build one with Compiler.Compile or CompileBytes"}
	}
	var stack [16]*node
	ev := evaluation{stack: stack[:0]}
	if ev.eval(s.root, v, false, nil) {
		return nil
	}
	return fromLeaves(ev.leaves)
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

// decodeJSON decodes exactly one JSON value with json.Number numbers:
// quickly (jsondecode.go) when the input is plainly well-formed, else
// through encoding/json, whose errors the messages quote.
func decodeJSON(data []byte) (any, *ValidationError) {
	if v, ok := quickDecode(data); ok {
		return v, nil
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		var off int64
		var se *json.SyntaxError
		switch {
		case errors.As(err, &se):
			off = se.Offset
			// The decoder's offset is just past the offending byte.
			if off > 0 && off <= int64(len(data)) && !errors.Is(err, io.ErrUnexpectedEOF) {
				off--
			}
		default:
			off = int64(len(data))
		}
		msg := err.Error()
		if errors.Is(err, io.EOF) {
			msg = "empty input, expected a JSON value"
		} else if errors.Is(err, io.ErrUnexpectedEOF) {
			msg = "unexpected end of JSON input"
		}
		return nil, jsonErr(data, off, msg)
	}
	off := dec.InputOffset()
	for i := off; i < int64(len(data)); i++ {
		switch data[i] {
		case ' ', '\t', '\r', '\n':
			continue
		}
		return nil, jsonErr(data, i, fmt.Sprintf("unexpected %q after the top-level value", data[i]))
	}
	return v, nil
}

func jsonErr(data []byte, off int64, msg string) *ValidationError {
	line, col := 1, 1
	for i := int64(0); i < off && i < int64(len(data)); i++ {
		if data[i] == '\n' {
			line++
			col = 1
		} else {
			col++
		}
	}
	return &ValidationError{
		Constraint: "json",
		Message:    fmt.Sprintf("invalid JSON at byte offset %d (line %d, column %d): %s", off, line, col, msg),
	}
}
