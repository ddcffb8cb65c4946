package schema

import (
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"kitsoki/internal/jsonvalue"
)

// Bundling: every schema kitsoki sends anywhere must be readable by a
// client that has only that one document, so every file the library loaded
// for it is inlined once under the root's $defs (definitions up to
// draft-07), keyed by its path below schemas/. The library resolves every
// reference; the bundler only moves the documents and rewrites the
// references to where their targets went, in one of two forms:
//
//   - plain (the usual case): every $ref becomes a JSON pointer into the
//     bundle, and $id/id and $schema are kept on the root only.
//   - compound (drafts 2019-09 and 2020-12), when a file uses dynamic or
//     recursive references, or a subschema declares a draft of its own:
//     those depend on resource boundaries, so every file stays a resource
//     named by its path under "kitsoki:///", and every $ref names it.
//
// The bundle must compile on its own, and its files must use the root's
// draft: inlining a draft-07 file under a 2020-12 root would change what
// it accepts.

// bundleDoc is one file taking part in a bundle.
type bundleDoc struct {
	rel    string // story-relative slash path
	url    string // the URL the library knows it by
	doc    any    // a private decoded copy, rewritten in place
	key    string // its name under the root's definitions keyword
	prefix string // JSON pointer of the document inside the bundle ("" for the root)
}

// siteKey names a reference site: its document's URL and the pointer of
// the object holding the ref.
type siteKey struct{ doc, obj string }

// bundle returns the document sent for the compiled root file (raw, its
// bytes; doc, as decoded): raw itself when the library loaded no other
// file for it.
func bundle(l *rootLoader, jc *jsonschema.Compiler, raw []byte, doc any) ([]byte, error) {
	targets, err := resolveSites(l, jc)
	if err != nil {
		return nil, err
	}
	if len(l.loaded) == 0 {
		return raw, nil
	}
	d := draftOf(doc)
	root := &bundleDoc{rel: l.rootName, url: l.rootURL}
	docs := []*bundleDoc{root}
	for _, ld := range l.loaded {
		doc := mustDecode(ld.raw)
		if got := draftOf(doc); got != d {
			return nil, &CompileError{File: ld.rel, Message: fmt.Sprintf(
				"is %s but the schema %s that references it is %s; a schema kitsoki sends is bundled into one document with one draft, so declare the same \"$schema\" in both files",
				got, l.rootName, d)}
		}
		docs = append(docs, &bundleDoc{rel: ld.rel, url: ld.url, doc: doc})
	}
	root.doc = mustDecode(raw)
	rootObj, ok := root.doc.(map[string]any)
	if !ok {
		return nil, &CompileError{File: l.rootName, Message: "cannot be bundled: the schema is not a JSON object but references other files"}
	}
	b := &bundler{l: l, d: d, docs: docs, targets: targets, byURL: map[string]*bundleDoc{}}
	for _, bd := range docs {
		b.byURL[bd.url] = bd
	}
	defs, err := b.keys(rootObj)
	if err != nil {
		return nil, err
	}
	compound, err := b.form()
	if err != nil {
		return nil, err
	}
	if compound {
		err = b.compound()
	} else {
		b.plain()
	}
	if err != nil {
		return nil, err
	}
	for _, bd := range docs[1:] {
		defs[bd.key] = bd.doc
	}
	rootObj[d.defsKeyword()] = defs
	return encodeBundle(l.rootName, rootObj)
}

// resolveSites has the library resolve every reference of every document
// the compile reached, even in subschemas nothing uses, and returns each
// $ref's target as "<document URL>#<pointer>". A reference the library
// cannot resolve is left as written; one leaving schemas/ fails.
func resolveSites(l *rootLoader, jc *jsonschema.Compiler) (map[siteKey]string, error) {
	targets := map[siteKey]string{}
	for i := 0; i < len(l.sites); i++ { // compiling may load files: their sites are appended
		s := l.sites[i]
		k := siteKey{s.doc, s.obj}
		if _, done := targets[k]; done {
			continue
		}
		sch, err := jc.Compile(s.doc + "#" + escapeFragment(s.obj))
		if err != nil {
			if ce := convertCompileErr(l.rootName, l.sites, err, l.describe); errors.Is(ce, ErrOutsideRoot) {
				return nil, ce
			}
			continue
		}
		if sch.Ref != nil {
			targets[k] = sch.Ref.Location
		}
	}
	return targets, nil
}

type bundler struct {
	l       *rootLoader
	d       draft
	docs    []*bundleDoc
	targets map[siteKey]string
	byURL   map[string]*bundleDoc
}

// keys gives every inlined document its place under the root's
// definitions keyword (its path below schemas/, suffixed when the root
// already uses that name) and returns that keyword's object.
func (b *bundler) keys(rootObj map[string]any) (map[string]any, error) {
	kw := b.d.defsKeyword()
	defs, _ := rootObj[kw].(map[string]any)
	if defs == nil {
		if _, exists := rootObj[kw]; exists {
			return nil, &CompileError{File: b.l.rootName, Pointer: "/" + kw, Message: "cannot be bundled: " + kw + " is not an object"}
		}
		defs = map[string]any{}
	}
	taken := map[string]bool{}
	for _, bd := range b.docs[1:] {
		base := strings.TrimPrefix(bd.rel, "schemas/")
		key := base
		for n := 2; defs[key] != nil || taken[key]; n++ {
			key = fmt.Sprintf("%s~%d", base, n)
		}
		taken[key] = true
		bd.key = key
		bd.prefix = "/" + escapePointer(kw) + "/" + escapePointer(key)
	}
	return defs, nil
}

// plain rewrites every $ref to a pointer into the bundle and strips what
// only a separate resource may carry.
func (b *bundler) plain() {
	seenAnchors := map[string]bool{}
	for _, bd := range b.docs {
		b.eachObject(bd, func(obj map[string]any, ptr string) {
			if !(bd == b.docs[0] && ptr == "") {
				delete(obj, b.d.idKeyword())
				delete(obj, "$schema")
			}
			if a, ok := obj["$anchor"].(string); ok {
				if seenAnchors[a] {
					delete(obj, "$anchor")
				}
				seenAnchors[a] = true
			}
			if t, ok := b.target(bd, ptr); ok {
				obj["$ref"] = (&url.URL{Fragment: t.prefix + t.ptr}).String()
				if obj["$ref"] == "" {
					obj["$ref"] = "#"
				}
			}
		})
	}
}

// compound names every document by its path under kitsoki:/// and points
// every $ref at the resource its target lies in.
func (b *bundler) compound() error {
	for i, bd := range b.docs {
		obj, isObj := bd.doc.(map[string]any)
		if !isObj {
			continue // a boolean schema holds no reference
		}
		if id := idOf(obj, b.d); id != "" {
			base, _ := url.Parse(bd.url)
			if u, err := url.Parse(id); err != nil || resolveURI(base, u).String() != bd.url {
				return &CompileError{File: bd.rel, Pointer: "/" + b.d.idKeyword(), Message: fmt.Sprintf(
					"cannot be bundled: %q names the file apart from its path, and a bundle that keeps $dynamicRef working names each file by its path; remove the %s at the top of the file",
					id, b.d.idKeyword())}
			}
		}
		obj[b.d.idKeyword()] = b.neutral(bd.url)
		if i > 0 {
			delete(obj, "$schema")
		}
	}
	for _, bd := range b.docs {
		b.eachObject(bd, func(obj map[string]any, ptr string) {
			if t, ok := b.target(bd, ptr); ok {
				obj["$ref"] = b.neutral(t.url) + (&url.URL{Fragment: t.ptr}).String()
			}
		})
	}
	return nil
}

// neutral is a document's name in a compound bundle: its path inside the
// story under "kitsoki:///", so nothing of the local file system travels.
func (b *bundler) neutral(fileURL string) string {
	u, _ := url.Parse(fileURL)
	rel, _ := within(b.l.c.storyDir, u.Path)
	if strings.HasSuffix(u.Path, "/") {
		rel += "/"
	}
	return (&url.URL{Scheme: "kitsoki", Path: "/" + rel}).String()
}

// bundleTarget is where the $ref of a site points: a document of the
// bundle and a pointer inside it.
type bundleTarget struct {
	*bundleDoc
	ptr string
}

// target is the resolved target of the $ref held by the object at ptr in
// bd, when it lies in a document of the bundle.
func (b *bundler) target(bd *bundleDoc, ptr string) (bundleTarget, bool) {
	loc, ok := b.targets[siteKey{bd.url, ptr}]
	if !ok {
		return bundleTarget{}, false
	}
	doc, frag, _ := strings.Cut(loc, "#")
	td := b.byURL[doc]
	if td == nil {
		return bundleTarget{}, false // a standard metaschema: kept as written
	}
	return bundleTarget{td, unescapeFragment(frag)}, true
}

// eachObject calls f for every schema object of bd with its pointer.
func (b *bundler) eachObject(bd *bundleDoc, f func(obj map[string]any, ptr string)) {
	var walk func(node any, ptr string)
	walk = func(node any, ptr string) {
		obj, ok := node.(map[string]any)
		if !ok {
			return
		}
		f(obj, ptr)
		eachSubschema(obj, ptr, walk)
	}
	walk(bd.doc, "")
}

// form reports whether the bundle must be compound. Drafts up to 7 ignore
// an id beside "$ref", so there a subschema declaring another draft is
// refused instead.
func (b *bundler) form() (bool, error) {
	compound := false
	for _, bd := range b.docs {
		var err error
		b.eachObject(bd, func(obj map[string]any, ptr string) {
			for _, kw := range []string{"$dynamicRef", "$dynamicAnchor", "$recursiveRef", "$recursiveAnchor"} {
				if _, ok := obj[kw]; ok && b.d >= draft2019 {
					compound = true
				}
			}
			ms, ok := obj["$schema"].(string)
			if !ok || ptr == "" {
				return
			}
			if nd, _ := draftOfURL(ms); nd == b.d {
				return
			}
			if b.d >= draft2019 {
				compound = true
			} else if err == nil {
				err = &CompileError{File: bd.rel, Pointer: ptr + "/$schema", Message: fmt.Sprintf(
					"cannot be bundled: this subschema declares its own draft inside %s files, and a %s bundle cannot keep it apart; remove this \"$schema\" or declare draft 2020-12 in every file of the bundle", b.d, b.d)}
			}
		})
		if err != nil {
			return false, err
		}
	}
	return compound, nil
}

// encodeBundle writes the bundle of rel and checks that it compiles on its
// own.
func encodeBundle(rel string, rootObj map[string]any) ([]byte, error) {
	out, err := jsonvalue.MarshalIndentNoHTML(rootObj)
	if err != nil {
		return nil, &CompileError{File: rel, Message: "cannot be bundled: " + err.Error()}
	}
	if _, err := CompileBytes(rel, out); err != nil {
		return nil, &CompileError{File: rel, Message: "cannot be bundled into one self-contained document (" + err.Error() + "); write its references to other files as relative paths under schemas/"}
	}
	return out, nil
}

// mustDecode decodes bytes that decoded once already.
func mustDecode(raw []byte) any {
	v, _ := decodeJSON(raw)
	return v
}

// escapeFragment writes a JSON pointer as a URL fragment, the way the
// library reads it back.
func escapeFragment(ptr string) string {
	toks := strings.Split(ptr, "/")
	for i, t := range toks {
		toks[i] = url.PathEscape(t)
	}
	return strings.Join(toks, "/")
}
