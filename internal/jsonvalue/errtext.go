package jsonvalue

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// DecodeErrorText words encoding/json's refusal of data (or [One]'s) for
// a person: a syntax error or data after the value at its line and
// column, a value of the wrong type as [TypeMismatch] does, data that
// ends early as such; any other error's text without its "json: " prefix.
func DecodeErrorText(data []byte, err error) string {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, ErrEmpty) || strings.HasSuffix(err.Error(), "unexpected end of JSON input") {
		return "the JSON ends early (empty or cut short)"
	}
	if te, ok := errors.AsType[*TrailingError](err); ok {
		line, col := lineCol(data, te.Offset)
		return fmt.Sprintf("line %d, column %d: %s", line, col, te.Error())
	}
	if se, ok := errors.AsType[*json.SyntaxError](err); ok {
		line, col := lineCol(data, se.Offset-1) // Offset is just past the bad byte
		return fmt.Sprintf("line %d, column %d: %s", line, col, strings.TrimPrefix(se.Error(), "json: "))
	}
	if text, ok := TypeMismatch(err); ok {
		return text
	}
	return strings.TrimPrefix(err.Error(), "json: ")
}

// lineCol turns a byte offset into a 1-based line and column.
func lineCol(b []byte, off int64) (int, int) {
	b = b[:max(0, min(off, int64(len(b))))]
	return bytes.Count(b, []byte{'\n'}) + 1, len(b) - bytes.LastIndexByte(b, '\n')
}
