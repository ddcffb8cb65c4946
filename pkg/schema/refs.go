package schema

import (
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// refSite is one reference found in a loaded schema document.
type refSite struct {
	file   string // display name of the file holding the ref
	doc    string // URL of that document
	obj    string // JSON pointer of the object holding the ref keyword
	kw     string // "$ref", "$dynamicRef" or "$recursiveRef"
	ref    string // the reference as written
	target string // resolved absolute URL, fragment included ("" if unparsable)
}

// pointer is the JSON pointer of the ref keyword itself.
func (s refSite) pointer() string { return s.obj + "/" + escapePointer(s.kw) }

// refPolicy decides whether a resolved reference that leaves its document
// may be loaded. It returns "" to allow, or the refusal and the fix.
type refPolicy func(site refSite, target *url.URL) string

// refScanner records every reference of every document loaded during one
// compile, and refuses those its policy rejects, and every $schema naming
// no standard metaschema, before anything is read.
type refScanner struct {
	policy refPolicy
	inRoot func(*url.URL) bool // a file the loader could serve
	sites  []refSite
}

// Keywords whose value is one subschema.
var singleSchemaKeywords = []string{
	"additionalItems", "additionalProperties", "contains", "contentSchema",
	"else", "if", "items", "not", "propertyNames", "then",
	"unevaluatedItems", "unevaluatedProperties",
}

// Keywords whose value is an array of subschemas.
var arraySchemaKeywords = []string{"allOf", "anyOf", "items", "oneOf", "prefixItems"}

// Keywords whose value maps names to subschemas.
var mapSchemaKeywords = []string{
	"$defs", "definitions", "dependencies", "dependentSchemas",
	"patternProperties", "properties",
}

var refKeywords = []string{"$ref", "$dynamicRef", "$recursiveRef"}

// scan records the references of doc (loaded from docURL, shown as file)
// and applies the policy to every one that leaves doc; the first refusal
// is a *CompileError.
func (s *refScanner) scan(docURL, file string, doc any) error {
	base, err := url.Parse(docURL)
	if err != nil {
		return &CompileError{File: file, Message: fmt.Sprintf("internal: bad document URL %q: %v", docURL, err)}
	}
	w := walker{file: file, doc: docURL, ids: map[string]bool{stripFragment(base.String()): true}}
	if err := w.at(doc, "", base, draftOf(doc), s); err != nil {
		return err
	}
	s.sites = append(s.sites, w.sites...)
	for _, site := range w.sites {
		if site.target == "" {
			return &CompileError{File: site.file, Pointer: site.pointer(), Ref: site.ref,
				Message: fmt.Sprintf("%s %q is not a valid URI reference; write a relative path like \"other.json#/$defs/x\"", site.kw, site.ref)}
		}
		t, err := url.Parse(site.target)
		if err != nil {
			return &CompileError{File: site.file, Pointer: site.pointer(), Ref: site.ref,
				Message: fmt.Sprintf("%s %q is not a valid URI reference: %v", site.kw, site.ref, err)}
		}
		if w.ids[stripFragment(site.target)] || isMetaschemaURL(t) {
			continue
		}
		if msg := s.policy(site, t); msg != "" {
			return &CompileError{File: site.file, Pointer: site.pointer(), Ref: site.ref, Message: msg, outside: true}
		}
	}
	return nil
}

// walker finds the references of one document, following the library's
// rules for base URIs (idOf) and drafts. It walks every subschema keyword
// of every draft, since a JSON pointer may lead anywhere.
type walker struct {
	file  string
	doc   string
	ids   map[string]bool // resources the document defines
	sites []refSite
}

// at visits the object at ptr (its tokens already escaped), under base
// in draft d.
func (w *walker) at(node any, ptr string, base *url.URL, d draft, s *refScanner) error {
	obj, ok := node.(map[string]any)
	if !ok {
		return nil
	}
	if ms, ok := obj["$schema"].(string); ok {
		nd, known := draftOfURL(ms)
		if !known {
			return s.unknownMetaschema(w.file, ptr, base, ms)
		}
		if ptr == "" || idOf(obj, nd) != "" {
			d = nd
		}
	}
	if id := idOf(obj, d); id != "" {
		if u, err := url.Parse(id); err == nil {
			base = resolveURI(base, u)
			w.ids[stripFragment(base.String())] = true
		}
	}
	for _, kw := range refKeywords {
		ref, ok := obj[kw].(string)
		if !ok {
			continue
		}
		site := refSite{file: w.file, doc: w.doc, obj: ptr, kw: kw, ref: ref}
		if u, err := url.Parse(ref); err == nil {
			site.target = resolveURI(base, u).String()
		}
		w.sites = append(w.sites, site)
	}
	var err error
	eachSubschema(obj, ptr, func(sub any, sp string) {
		if err == nil {
			err = w.at(sub, sp, base, d, s)
		}
	})
	return err
}

// eachSubschema calls f for every subschema position of obj, in a fixed
// order (keywords as listed, map keys sorted).
func eachSubschema(obj map[string]any, ptr string, f func(sub any, ptr string)) {
	for _, kw := range singleSchemaKeywords {
		if v, ok := obj[kw]; ok {
			if _, isObj := v.(map[string]any); isObj {
				f(v, ptr+"/"+kw)
			}
		}
	}
	for _, kw := range arraySchemaKeywords {
		if arr, ok := obj[kw].([]any); ok {
			for i, v := range arr {
				f(v, ptr+"/"+kw+"/"+strconv.Itoa(i))
			}
		}
	}
	for _, kw := range mapSchemaKeywords {
		m, ok := obj[kw].(map[string]any)
		if !ok {
			continue
		}
		for _, name := range slices.Sorted(maps.Keys(m)) {
			f(m[name], ptr+"/"+escapePointer(kw)+"/"+escapePointer(name))
		}
	}
}

// unknownMetaschema refuses a $schema naming no standard metaschema:
// kitsoki never loads custom metaschemas (a bundle could not carry one).
func (s *refScanner) unknownMetaschema(file, ptr string, base *url.URL, ms string) error {
	outside := true
	if u, err := url.Parse(ms); err == nil && s.inRoot != nil && s.inRoot(resolveURI(base, u)) {
		outside = false
	}
	msg := fmt.Sprintf("$schema %q is not one of the standard drafts (draft-04, draft-06, draft-07, 2019-09, 2020-12); custom metaschemas are never loaded", ms)
	if outside {
		msg = fmt.Sprintf("$schema %q is not one of the standard drafts and would be read from outside the story's schemas directory; use e.g. \"https://json-schema.org/draft/2020-12/schema\"", ms)
	}
	at := ""
	if ptr != "" {
		at = ptr + "/$schema"
	}
	return &CompileError{File: file, Pointer: at, Message: msg, outside: outside}
}

// resolveURI resolves ref against base as the library does: against an
// opaque base ("urn:x") a relative ref keeps the base's opaque part.
func resolveURI(base, ref *url.URL) *url.URL {
	t := base.ResolveReference(ref)
	if base.Opaque != "" && !ref.IsAbs() {
		t.Opaque = base.Opaque
	}
	return t
}

func isMetaschemaURL(u *url.URL) bool {
	return (u.Scheme == "http" || u.Scheme == "https") && u.Host == "json-schema.org"
}

func stripFragment(s string) string {
	s, _, _ = strings.Cut(s, "#")
	return s
}

// escapePointer escapes one JSON pointer token (RFC 6901).
func escapePointer(tok string) string {
	if !strings.ContainsAny(tok, "~/") {
		return tok
	}
	return strings.ReplaceAll(strings.ReplaceAll(tok, "~", "~0"), "/", "~1")
}

func jsonPointer(tokens []string) string {
	var sb strings.Builder
	for _, t := range tokens {
		sb.WriteByte('/')
		sb.WriteString(escapePointer(t))
	}
	return sb.String()
}
