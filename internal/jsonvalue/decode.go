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

// OneExact decodes data, which must hold exactly one JSON value with only
// whitespace around it, into v, numbers decoded into an interface kept as
// [json.Number], every digit as written ("1e400" too); [Ints] or [Int64s]
// then pick the Go number. A child's answer line is read this way. Data
// with no value is [ErrEmpty], data after the value a *[TrailingError]; a
// value that does not parse is encoding/json's error (a *json.SyntaxError,
// io.ErrUnexpectedEOF, ...).
func OneExact(data []byte, v any) error { return one(data, v, true) }

// ErrEmpty is OneExact's error for data holding only whitespace.
var ErrEmpty = errors.New("no JSON value (the input is empty)")

// TrailingError is OneExact's error for data after the one JSON value.
type TrailingError struct {
	// Offset is the byte offset in data of Byte, the first byte after the
	// value that is not whitespace.
	Offset int64
	Byte   byte
}

func (e *TrailingError) Error() string {
	return fmt.Sprintf("unexpected %q after the JSON value (exactly one value expected)", e.Byte)
}

func one(data []byte, v any, exact bool) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	if exact {
		dec.UseNumber()
	}
	if err := dec.Decode(v); err != nil {
		if errors.Is(err, io.EOF) {
			return ErrEmpty
		}
		return err
	}
	if rest := bytes.TrimLeft(data[dec.InputOffset():], " \t\r\n"); len(rest) > 0 {
		// Not dec.More: it reports no more after a stray '}' or ']'.
		return &TrailingError{Offset: int64(len(data) - len(rest)), Byte: rest[0]}
	}
	return nil
}

// NumberOutOfRange reports whether err is encoding/json's refusal of a
// number past a float's range (1e400) read into a float or an interface,
// returning the number as written: the value is of the right type, and an
// author is told so rather than that it is not one.
func NumberOutOfRange(err error) (number string, ok bool) {
	te, isType := errors.AsType[*json.UnmarshalTypeError](err)
	if !isType || te.Type == nil {
		return "", false
	}
	number, isNumber := strings.CutPrefix(te.Value, "number ")
	if k := te.Type.Kind(); !isNumber || (k != reflect.Float64 && k != reflect.Float32) {
		return "", false
	}
	return number, true
}
