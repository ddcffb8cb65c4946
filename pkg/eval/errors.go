package eval

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"kitsoki/internal/atomicfile"
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
