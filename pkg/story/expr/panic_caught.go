package expr

import (
	"os"

	"kitsoki/internal/panicked"
)

// caught is a panic recovered in the call where: no story input is known
// to reach these recovers (the expression VM and compiler recover their
// own), so it is a kitsoki bug in panicked's wording, its stack on stderr
// (this package has no trace).
func caught(kind ErrorKind, where, what, src string, p any) *Error {
	pe := panicked.Logged(os.Stderr, where, what, p)
	return &Error{Kind: kind, Msg: pe.Error(), Src: src, Err: pe}
}

// pongoSortString is what pongo2 panics with for a {% for %} loop
// "sorted" over a string: story input, so a user error (see
// sortedStringError), not a bug.
const pongoSortString = "TODO: handle sort for type string"

// sortedStringError is the render of template name failing on pongo2's
// panic for "sorted" over a string.
func sortedStringError(name string) *Error {
	return &Error{Kind: KindPongo, Msg: "pongo2 render " + name + `: a {% for %} loop over a string cannot be "sorted" (pongo2 sorts lists and maps only): drop "sorted", or loop over a list`}
}
