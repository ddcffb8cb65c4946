package view

import (
	"errors"
	"fmt"

	"kitsoki/pkg/story"
)

// Error is every error a Renderer returns: where the failing view is,
// which state was rendered, which part failed and why.
type Error struct {
	// Pos is the position of the failing part: the view or element in the
	// story YAML, or the line inside a views/ file.
	Pos story.Pos
	// State is the state path being rendered.
	State string
	// What names the part: "view", "view[2] (kv)", "view.blocks.body[0] (prose)",
	// "views/base.pongo", ...
	What string
	// Msg says what went wrong and, where it can, how to fix it.
	Msg string
	// Internal marks a renderer bug (a recovered panic), never bad input.
	Internal bool
	// Err is the underlying error (an *expr.Error for template and guard
	// problems), if any.
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

// errAt builds an *Error for part what of state's view at pos. When err
// is a pongo2 error from a views/ file, its own file:line becomes Pos.
func errAt(pos story.Pos, state, what string, err error) *Error {
	var ee *Error
	if errors.As(err, &ee) {
		return ee
	}
	// The message of a template error carries the line:col inside the
	// template text; Pos is the YAML node holding it.
	return &Error{Pos: pos, State: state, What: what, Msg: err.Error(), Err: err}
}
