package schema

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// ErrOutsideRoot is matched (errors.Is) by a CompileError whose schema path
// or $ref leaves the story directory or its schemas/.
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

// convertCompileErr turns a library compile error into a *CompileError
// naming the file and, where it can be found, the pointer and the ref.
func convertCompileErr(file string, sites []refSite, err error, describe func(string) (string, string)) error {
	if ce, ok := errors.AsType[*CompileError](err); ok {
		return ce
	}
	at := func(u, msg string) error {
		f, p := describe(u)
		return &CompileError{File: f, Pointer: p, Message: msg}
	}
	refErr := func(target, msg string, outside bool) error {
		if site, ok := siteFor(sites, target); ok {
			return &CompileError{File: site.file, Pointer: site.pointer(), Ref: site.ref, Message: fmt.Sprintf("%s %q %s", site.kw, site.ref, msg), outside: outside}
		}
		f, p := describe(target)
		if p != "" {
			f += "#" + p
		}
		return &CompileError{File: file, Message: fmt.Sprintf("a reference to %s %s", f, msg), outside: outside}
	}
	var (
		le  *jsonschema.LoadURLError
		sve *jsonschema.SchemaValidationError
		pnf *jsonschema.JSONPointerNotFoundError
		ijp *jsonschema.InvalidJsonPointerError
		anf *jsonschema.AnchorNotFoundError
		ire *jsonschema.InvalidRegexError
		did *jsonschema.DuplicateIDError
		dan *jsonschema.DuplicateAnchorError
		pid *jsonschema.ParseIDError
		pan *jsonschema.ParseAnchorError
	)
	switch {
	case errors.As(err, &le):
		if ce, ok := errors.AsType[*CompileError](le.Err); ok {
			return ce
		}
		var lerr *loadError
		outside := errors.As(le.Err, &lerr) && lerr.outside
		return refErr(le.URL, "cannot be loaded: "+le.Err.Error(), outside)
	case errors.As(err, &sve):
		return metaschemaError(sve, describe)
	case errors.As(err, &pnf):
		return refErr(pnf.URL, "points at nothing: no such JSON pointer in the target schema; check the path after \"#\"", false)
	case errors.As(err, &ijp):
		return refErr(ijp.URL, "has an invalid JSON pointer fragment; write it as \"#/$defs/name\" (\"~0\" for ~, \"~1\" for /)", false)
	case errors.As(err, &anf):
		return refErr(anf.Reference, "names an anchor that does not exist; declare it with \"$anchor\" (or \"$dynamicAnchor\") in the target schema", false)
	case errors.As(err, &ire):
		return at(ire.URL, fmt.Sprintf("invalid regular expression %q: %v; patterns use Go's RE2 syntax (no lookaround or backreferences)", ire.Regex, ire.Err))
	case errors.As(err, &did):
		first, second := ordered(did.Ptr1, did.Ptr2)
		return at(did.URL+"#"+second, fmt.Sprintf("duplicate id %q: it already names the schema at %s; give each resource its own id", did.ID, first))
	case errors.As(err, &dan):
		first, second := ordered(dan.Ptr1, dan.Ptr2)
		return at(dan.URL+"#"+second, fmt.Sprintf("duplicate anchor %q: already defined at %s in this schema resource; rename one of them", dan.Anchor, first))
	case errors.As(err, &pid):
		return at(pid.URL, "the id is not a valid URI reference; write a relative path or an absolute URI")
	case errors.As(err, &pan):
		return at(pan.URL, "the anchor is not a valid URI fragment; use letters, digits, '-', '_' and '.'")
	}
	return &CompileError{File: file, Message: err.Error()}
}

// ordered puts two JSON pointers in document order (the library finds a
// duplicate in map order: either may come first).
func ordered(a, b string) (string, string) {
	if slices.CompareFunc(pointerTokens(a), pointerTokens(b), compareToken(nil)) > 0 {
		return b, a
	}
	return a, b
}

// metaschemaError names the first place where a document breaks its
// draft's metaschema, with the library's words for what is wrong there.
func metaschemaError(sve *jsonschema.SchemaValidationError, describe func(string) (string, string)) error {
	f, p := describe(sve.URL)
	var ve *jsonschema.ValidationError
	if !errors.As(sve.Err, &ve) {
		return &CompileError{File: f, Pointer: p, Message: "not a valid JSON Schema: " + sve.Err.Error()}
	}
	leaves := flatten(ve, func(u string) string { return u })
	// Of alternatives (anyOf in a metaschema), the one that went deepest
	// into the document names the place best.
	first := leaves[0]
	for _, l := range leaves {
		if len(l.inst) > len(first.inst) {
			first = l
		}
	}
	ptr := p + first.v.Pointer
	if first.prop != "" {
		ptr += "/" + escapePointer(first.prop) // a bad name under patternProperties or the like
	}
	var parts []string
	for _, l := range leaves {
		if l.v.Pointer == first.v.Pointer && l.prop == first.prop {
			parts = append(parts, l.v.Constraint+": "+l.v.Message)
		}
	}
	msg := strings.Join(parts, "; ")
	fix := "fix the keyword at that place (its draft's metaschema says what it accepts)"
	if strings.Contains(msg, "regex") {
		fix = "patterns use Go's RE2 syntax (no lookaround, no backreferences)"
	}
	return &CompileError{File: f, Pointer: ptr, Message: "not a valid JSON Schema: " + msg + "; " + fix}
}

// refTarget is the reference target a library compile error is about,
// for the errors a broken reference causes.
func refTarget(err error) (string, bool) {
	if e, ok := errors.AsType[*jsonschema.LoadURLError](err); ok {
		return e.URL, true
	}
	if e, ok := errors.AsType[*jsonschema.JSONPointerNotFoundError](err); ok {
		return e.URL, true
	}
	if e, ok := errors.AsType[*jsonschema.InvalidJsonPointerError](err); ok {
		return e.URL, true
	}
	if e, ok := errors.AsType[*jsonschema.AnchorNotFoundError](err); ok {
		return e.Reference, true
	}
	return "", false
}

// firstBroken makes the report of a broken reference stable: the library
// compiles in Go's map order, so when err is about a reference, the refs
// of the document at docURL are resolved again one by one in document
// order, and the first that fails on its own target is the error.
func firstBroken(err error, sites []refSite, docURL string, doc any, newCompiler func() *jsonschema.Compiler) error {
	if _, isRef := refTarget(err); !isRef {
		return err
	}
	for _, s := range sites {
		if s.doc != docURL || s.target == "" {
			continue
		}
		jc := newCompiler()
		if jc.AddResource(docURL, doc) != nil {
			return err
		}
		_, e := jc.Compile(s.target)
		if t, isRef := refTarget(e); isRef && refersTo(s.target, t) {
			return e
		}
	}
	return err
}

// refersTo reports whether a library error's target t is the reference
// target u (or its document).
func refersTo(u, t string) bool {
	doc, frag, _ := strings.Cut(u, "#")
	tdoc, tfrag, hasFrag := strings.Cut(t, "#")
	return doc == tdoc && (!hasFrag || sameFragment(frag, tfrag))
}

// siteFor finds the scanned reference whose target is u.
func siteFor(sites []refSite, u string) (refSite, bool) {
	for _, s := range sites {
		if s.target == u || stripFragment(s.target) == u {
			return s, true
		}
	}
	doc, frag, _ := strings.Cut(u, "#")
	for _, s := range sites {
		sd, sf, _ := strings.Cut(s.target, "#")
		if sd == doc && sameFragment(sf, frag) {
			return s, true
		}
	}
	return refSite{}, false
}

// sameFragment compares two URL fragments after unescaping.
func sameFragment(a, b string) bool {
	return unescapeFragment(a) == unescapeFragment(b)
}

// ValidationError is why an instance does not satisfy a schema. The fields
// describe the first leaf failure; More holds the others.
type ValidationError struct {
	Pointer    string // JSON pointer into the instance, "" for the root ("/verdict")
	Constraint string // keyword that failed: "required", "enum", "type", ... or "json"
	Message    string // human text
	// More lists further leaf failures.
	More []ValidationError

	keyed bool // the library's own message starts with Constraint ("maximum: got 5, want 1")
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

// LibraryText renders every leaf as the library words it, "<pointer>:
// <message>" with the keyword only where the library's message starts with
// it ("/confidence: got string, want number", "/confidence: maximum: got 3,
// want 1"), joined with "; ". It is the form the existing engine prints in
// eval show's "expect schema invalid" errors.
func (e *ValidationError) LibraryText() string {
	var sb strings.Builder
	for i := -1; i < len(e.More); i++ {
		l := e
		if i >= 0 {
			sb.WriteString("; ")
			l = &e.More[i]
		}
		if l.Pointer != "" {
			sb.WriteString(l.Pointer)
			sb.WriteString(": ")
		}
		if l.keyed {
			sb.WriteString(l.Constraint)
			sb.WriteString(": ")
		}
		sb.WriteString(l.Message)
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
