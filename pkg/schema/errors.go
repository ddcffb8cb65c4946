package schema

import (
	"errors"
	"fmt"
	"net/url"
	"sort"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
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

var english = message.NewPrinter(language.English)

// fromLibrary flattens the library's error tree into a ValidationError.
func fromLibrary(ve *jsonschema.ValidationError) *ValidationError {
	var leaves []*jsonschema.ValidationError
	collectLeaves(ve, &leaves)
	if len(leaves) == 0 {
		leaves = append(leaves, ve)
	}
	// The library walks properties in map order; sorting by instance
	// pointer (stable, so branch order under one pointer is kept) makes
	// the first leaf and Error() deterministic.
	sort.SliceStable(leaves, func(i, j int) bool {
		return lessPointer(leaves[i].InstanceLocation, leaves[j].InstanceLocation)
	})
	out := leafOf(leaves[0])
	if len(leaves) > 1 {
		out.More = make([]ValidationError, 0, len(leaves)-1)
		for _, l := range leaves[1:] {
			out.More = append(out.More, leafOf(l))
		}
	}
	return &out
}

func lessPointer(a, b []string) bool {
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return len(a) < len(b)
}

func collectLeaves(e *jsonschema.ValidationError, out *[]*jsonschema.ValidationError) {
	if len(e.Causes) == 0 {
		*out = append(*out, e)
		return
	}
	for _, c := range e.Causes {
		collectLeaves(c, out)
	}
}

func leafOf(e *jsonschema.ValidationError) ValidationError {
	c := constraintOf(e.ErrorKind)
	msg := e.ErrorKind.LocalizedString(english)
	// Some library messages already start with the keyword
	// ("maximum: got 5, want 1"); keep it once.
	msg = strings.TrimPrefix(msg, c+": ")
	return ValidationError{Pointer: jsonPointer(e.InstanceLocation), Constraint: c, Message: msg}
}

func constraintOf(k jsonschema.ErrorKind) string {
	switch k.(type) {
	case *kind.Not:
		return "not"
	case *kind.FalseSchema:
		return "false"
	case *kind.RefCycle:
		return "$ref"
	case *kind.InvalidJsonValue:
		return "json"
	case *kind.Schema, *kind.Group:
		return "schema"
	}
	if p := k.KeywordPath(); len(p) > 0 {
		return p[0]
	}
	return "schema"
}

// convertCompileErr turns a library compile error into a *CompileError
// naming the file and, where it can be found, the pointer and the ref.
// describe maps a library URL to (file, pointer); nil means in-memory.
func convertCompileErr(file string, sites []refSite, err error, describe func(string) (string, string)) error {
	if ce, ok := asCompileError(err); ok {
		return ce
	}
	if describe == nil {
		describe = func(raw string) (string, string) {
			if u, perr := url.Parse(raw); perr == nil && u.Scheme == "kitsoki-mem" {
				return file, u.Fragment
			}
			return raw, ""
		}
	}
	scan := refScanner{sites: sites}
	refErr := func(target, msg string, outside bool) error {
		if site, ok := scan.siteFor(target); ok {
			return &CompileError{File: site.file, Pointer: site.pointer, Ref: site.ref, Message: fmt.Sprintf("$ref %q %s", site.ref, msg), outside: outside}
		}
		f, p := describe(target)
		return &CompileError{File: file, Message: fmt.Sprintf("reference to %s%s %s", f, fragSuffix(p), msg), outside: outside}
	}

	var (
		le  *jsonschema.LoadURLError
		sve *jsonschema.SchemaValidationError
		pnf *jsonschema.JSONPointerNotFoundError
		ijp *jsonschema.InvalidJsonPointerError
		anf *jsonschema.AnchorNotFoundError
		ire *jsonschema.InvalidRegexError
		use *jsonschema.UnsupportedURLSchemeError
	)
	switch {
	case errors.As(err, &le):
		if ce, ok := asCompileError(le.Err); ok {
			return ce
		}
		var lerr *loadError
		outside := errors.As(le.Err, &lerr) && lerr.outside
		return refErr(le.URL, "cannot be loaded: "+le.Err.Error(), outside)
	case errors.As(err, &sve):
		f, p := describe(sve.URL)
		var ve *jsonschema.ValidationError
		if errors.As(sve.Err, &ve) {
			v := fromLibrary(ve)
			ptr := p + v.Pointer
			return &CompileError{File: f, Pointer: ptr, Message: fmt.Sprintf("not a valid JSON Schema: %s: %s", v.Constraint, v.Message)}
		}
		return &CompileError{File: f, Pointer: p, Message: "not a valid JSON Schema: " + sve.Err.Error()}
	case errors.As(err, &pnf):
		return refErr(pnf.URL, "points at nothing: no such JSON pointer in the target schema", false)
	case errors.As(err, &ijp):
		return refErr(ijp.URL, "has an invalid JSON pointer fragment", false)
	case errors.As(err, &anf):
		return refErr(anf.Reference, "names an anchor that does not exist", false)
	case errors.As(err, &ire):
		f, p := describe(ire.URL)
		return &CompileError{File: f, Pointer: p, Message: fmt.Sprintf("invalid regular expression %q: %v", ire.Regex, ire.Err)}
	case errors.As(err, &use):
		return &CompileError{File: file, Message: err.Error()}
	}
	return &CompileError{File: file, Message: err.Error()}
}

func fragSuffix(p string) string {
	if p == "" {
		return ""
	}
	return "#" + p
}
