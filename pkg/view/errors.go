package view

import (
	"errors"
	"fmt"

	"kitsoki/pkg/story"
)

// Error is every error a Renderer returns: where the failing view is,
// which state was rendered, which part failed and why.
type Error struct {
	// Pos is the failing part's position in the story YAML or a views/ file.
	Pos story.Pos
	// State is the state path being rendered.
	State string
	// What names the part: "view", "view[2] (kv)", "views/base.pongo", ...
	What string
	// Msg says what went wrong and, where it can, how to fix it.
	Msg string
	// Internal marks a renderer bug (a recovered panic), never bad input.
	Internal bool
	// Err is the underlying error (an *expr.Error for templates), if any.
	Err error
}

func (e *Error) Error() string {
	where := ""
	if e.Pos.File != "" {
		where = e.Pos.File
		if e.Pos.Line > 0 {
			where += fmt.Sprintf(":%d:%d", e.Pos.Line, e.Pos.Col)
		}
		where += ": "
	}
	return fmt.Sprintf("%sview of state %q: %s: %s", where, e.State, e.What, e.Msg)
}

func (e *Error) Unwrap() error { return e.Err }

// errAt builds an *Error at pos; a views/ file's pongo2 error moves Pos.
func errAt(pos story.Pos, state, what string, err error) *Error {
	if ee, ok := errors.AsType[*Error](err); ok {
		return ee
	}
	// A template error's message carries the line:col inside the template.
	return &Error{Pos: pos, State: state, What: what, Msg: err.Error(), Err: err}
}
