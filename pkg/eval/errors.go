package eval

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"kitsoki/internal/atomicfile"
	"kitsoki/internal/jsonvalue"
)

// ErrSyntax marks an eval dataset or report that was read but does not
// parse: a finding about the file (exit 1), not an I/O error (exit 2).
var ErrSyntax = errors.New("eval file does not parse")

type syntaxError struct {
	msg   string
	stops bool // upstream's loader refuses the file whole: its eval list stops
}

func (e *syntaxError) Error() string        { return e.msg }
func (e *syntaxError) Is(target error) bool { return target == ErrSyntax }

func syntaxErrorf(format string, a ...any) error {
	return &syntaxError{msg: fmt.Sprintf(format, a...)}
}

// refusedf is a syntax error upstream's YAML loader meets too (the syntax,
// a repeated key, a document that is no mapping): its eval list stops there.
func refusedf(format string, a ...any) error {
	return &syntaxError{msg: fmt.Sprintf(format, a...), stops: true}
}

// StopsList reports whether err is a dataset the existing engine's loader
// refuses whole, where its eval list stops with exit 1 (an empty file, a
// validation error or ours's own limits do not stop it).
func StopsList(err error) bool {
	se, ok := errors.AsType[*syntaxError](err)
	return ok && se.stops
}

// fileErrText is a file-system error's reason without its path, plus fix
// when the file is missing or a directory.
func fileErrText(err error, fix string) string {
	msg := atomicfile.Cause(err)
	if fix != "" && (errors.Is(err, fs.ErrNotExist) || strings.Contains(msg, "is a directory")) {
		msg += "; " + fix
	}
	return msg
}

// jsonErrText words a JSON decode error for users: a syntax error's line
// and column, a mismatch's JSON type.
func jsonErrText(b []byte, err error) string {
	if se, ok := errors.AsType[*json.SyntaxError](err); ok {
		line, col := lineCol(b, se.Offset-1) // Offset is just past the bad byte
		return fmt.Sprintf("line %d, column %d: %s", line, col, se.Error())
	}
	if text, ok := jsonvalue.TypeMismatch(err); ok {
		return text
	}
	if err.Error() == "unexpected end of JSON input" {
		return "the JSON ends early (truncated file?)"
	}
	return err.Error()
}

// lineCol turns a byte offset into a 1-based line and column.
func lineCol(b []byte, off int64) (int, int) {
	b = b[:max(0, min(off, int64(len(b))))]
	return bytes.Count(b, []byte{'\n'}) + 1, len(b) - bytes.LastIndexByte(b, '\n')
}
