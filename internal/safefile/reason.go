package safefile

import (
	"errors"
	"io/fs"
)

// Reason is the reason of a file error without Go's "open <abs path>"
// wrapping ("no such file", "permission denied", "is a directory"), for
// messages that name the file as the user gave it.
func Reason(err error) string {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "no such file"
	case errors.Is(err, fs.ErrPermission):
		return "permission denied"
	}
	return ErrText(err)
}

// ErrText is err's text without the operation and path a *fs.PathError
// wraps it in, for messages that name the file as the user gave it; unlike
// Reason it keeps the system's wording for a missing file.
func ErrText(err error) string {
	if pe, ok := errors.AsType[*fs.PathError](err); ok {
		return pe.Err.Error()
	}
	return err.Error()
}
