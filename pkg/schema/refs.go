package schema

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
)

// refSite is one reference found in a loaded schema document.
type refSite struct {
	file    string // display name of the file holding the ref
	pointer string // JSON pointer of the ref keyword in that file
	ref     string // the reference as written
	target  string // resolved absolute URL, fragment included ("" if unparsable)
}

// refPolicy decides whether a resolved, non-local reference may be loaded.
// It returns "" to allow, or the message explaining the refusal and the fix.
type refPolicy func(site refSite, target *url.URL) string

// refScanner records every reference of every document loaded during one
// compile, and refuses those its policy rejects before anything is read.
type refScanner struct {
	policy refPolicy
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

// scan walks the schema positions of doc (loaded from docURL, shown as
// file), records its references and applies the policy to every reference
// that does not stay inside doc. The first refusal is returned as a
// *CompileError naming file, pointer and ref.
func (s *refScanner) scan(docURL, file string, doc any) error {
	base, err := url.Parse(docURL)
	if err != nil {
		return &CompileError{File: file, Message: fmt.Sprintf("internal: bad document URL %q: %v", docURL, err)}
	}
	ids := map[string]bool{stripFragment(base.String()): true}
	var sites []refSite
	walkSchema(doc, "", base, file, ids, &sites)
	s.sites = append(s.sites, sites...)
	for _, site := range sites {
		if site.target == "" {
			return &CompileError{File: site.file, Pointer: site.pointer, Ref: site.ref,
				Message: fmt.Sprintf("$ref %q is not a valid URI reference; write a relative path like \"other.json#/$defs/x\"", site.ref)}
		}
		t, err := url.Parse(site.target)
		if err != nil {
			return &CompileError{File: site.file, Pointer: site.pointer, Ref: site.ref,
				Message: fmt.Sprintf("$ref %q is not a valid URI reference: %v", site.ref, err)}
		}
		if ids[stripFragment(site.target)] || isMetaschemaURL(t) {
			continue
		}
		if msg := s.policy(site, t); msg != "" {
			return &CompileError{File: site.file, Pointer: site.pointer, Ref: site.ref, Message: msg, outside: true}
		}
	}
	return nil
}

func walkSchema(node any, ptr string, base *url.URL, file string, ids map[string]bool, sites *[]refSite) {
	w := refWalker{file: file, ids: ids, sites: sites, toks: make([]string, 0, 16)}
	if ptr != "" {
		w.toks = append(w.toks, ptr[1:]) // already a pointer: kept whole
	}
	w.walk(node, base)
}

// refWalker walks the schema positions of a document for walkSchema. The
// JSON pointer of the position is kept as its escaped tokens and put
// together only for a position holding a reference.
type refWalker struct {
	file  string
	ids   map[string]bool
	sites *[]refSite
	toks  []string
}

func (w *refWalker) ptr() string {
	n := 0
	for _, t := range w.toks {
		n += 1 + len(t)
	}
	var sb strings.Builder
	sb.Grow(n)
	for _, t := range w.toks {
		sb.WriteByte('/')
		sb.WriteString(t)
	}
	return sb.String()
}

// at walks v at the position of the current pointer with toks appended.
func (w *refWalker) at(v any, base *url.URL, toks ...string) {
	w.toks = append(w.toks, toks...)
	w.walk(v, base)
	w.toks = w.toks[:len(w.toks)-len(toks)]
}

func (w *refWalker) walk(node any, base *url.URL) {
	obj, ok := node.(map[string]any)
	if !ok {
		return
	}
	if id, ok := obj["$id"].(string); ok && id != "" {
		if u, err := url.Parse(id); err == nil {
			base = base.ResolveReference(u)
			w.ids[stripFragment(base.String())] = true
		}
	}
	for _, kw := range refKeywords {
		ref, ok := obj[kw].(string)
		if !ok {
			continue
		}
		site := refSite{file: w.file, pointer: w.ptr() + "/" + escapePointer(kw), ref: ref}
		if u, err := url.Parse(ref); err == nil {
			site.target = base.ResolveReference(u).String()
		}
		*w.sites = append(*w.sites, site)
	}
	for _, kw := range singleSchemaKeywords {
		if v, ok := obj[kw]; ok {
			w.at(v, base, kw)
		}
	}
	for _, kw := range arraySchemaKeywords {
		if arr, ok := obj[kw].([]any); ok {
			for i, v := range arr {
				w.at(v, base, kw, strconv.Itoa(i))
			}
		}
	}
	for _, kw := range mapSchemaKeywords {
		m, ok := obj[kw].(map[string]any)
		if !ok {
			continue
		}
		for _, name := range sortedKeys(m) {
			w.at(m[name], base, escapePointer(kw), escapePointer(name))
		}
	}
}

func isMetaschemaURL(u *url.URL) bool {
	return (u.Scheme == "http" || u.Scheme == "https") && u.Host == "json-schema.org"
}

func stripFragment(s string) string {
	if i := strings.IndexByte(s, '#'); i >= 0 {
		return s[:i]
	}
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
