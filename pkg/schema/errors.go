package schema

import (
	"errors"
	"fmt"
	"sort"
	"strings"
)

// ErrOutsideRoot is matched (errors.Is) by a CompileError whose schema path
// or $ref leaves <storyDir>/schemas, or whose $ref would need the network or
// another file in an in-memory schema.
var ErrOutsideRoot = errors.New("schema reference outside the story's schemas directory")

// CompileError is why a schema could not be compiled.
type CompileError struct {
	File    string // the schema file ("schemas/verdict.json") or CompileBytes name
	Pointer string // JSON pointer inside File ("/properties/x/$ref"); "" when the whole file
	Ref     string // the reference as written, when a $ref is at fault
	Message string // what is wrong and how to fix it

	outside bool
}

// Unwrap lets errors.Is(err, ErrOutsideRoot) identify rooting refusals.
func (e *CompileError) Unwrap() error {
	if e.outside {
		return ErrOutsideRoot
	}
	return nil
}

func (e *CompileError) Error() string {
	if e.Pointer != "" {
		return fmt.Sprintf("schema %q at %s: %s", e.File, e.Pointer, e.Message)
	}
	return fmt.Sprintf("schema %q: %s", e.File, e.Message)
}

// ValidationError is why an instance does not satisfy a schema. The fields
// describe the first leaf failure (depth-first); More holds the others.
type ValidationError struct {
	Pointer    string // JSON pointer into the instance, "" for the root ("/verdict")
	Constraint string // keyword that failed: "required", "enum", "type", ... or "json"
	Message    string // human text
	// More lists further leaf failures, in depth-first order.
	More []ValidationError
}

// Error renders every leaf as "<pointer>: <constraint>: <message>" (the
// pointer and its colon are left out at the root), joined with "; ".
func (e *ValidationError) Error() string {
	var sb strings.Builder
	e.leaf(&sb)
	for i := range e.More {
		sb.WriteString("; ")
		e.More[i].leaf(&sb)
	}
	return sb.String()
}

func (e *ValidationError) leaf(sb *strings.Builder) {
	if e.Pointer != "" {
		sb.WriteString(e.Pointer)
		sb.WriteString(": ")
	}
	sb.WriteString(e.Constraint)
	sb.WriteString(": ")
	sb.WriteString(e.Message)
}

// fromLeaves turns the evaluation's leaf failures into a ValidationError.
func fromLeaves(leaves []leaf) *ValidationError {
	if len(leaves) == 0 {
		return &ValidationError{Constraint: "schema", Message: "validation failed"}
	}
	// Sorting by instance pointer (stable, so keyword and branch order
	// under one pointer is kept) makes the first leaf and Error()
	// independent of map order.
	sort.SliceStable(leaves, func(i, j int) bool {
		return lessPointer(leaves[i].path, leaves[j].path)
	})
	out := leafError(leaves[0])
	if len(leaves) > 1 {
		out.More = make([]ValidationError, 0, len(leaves)-1)
		for _, l := range leaves[1:] {
			out.More = append(out.More, leafError(l))
		}
	}
	return &out
}

func leafError(l leaf) ValidationError {
	return ValidationError{Pointer: jsonPointer(l.path), Constraint: l.constraint, Message: l.msg}
}

func lessPointer(a, b []string) bool {
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return len(a) < len(b)
}
