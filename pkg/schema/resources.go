package schema

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
)

// Resources, anchors and references: which document and pointer a URI
// names, loading referenced files through the loader on first use.

// resource is a schema resource: a document root or a subschema with an id.
type resource struct {
	url        string // absolute, no fragment
	draft      draft
	recursive  bool              // root has "$recursiveAnchor": true
	dynAnchors map[string]string // $dynamicAnchor name -> pointer (in doc)
	dynNodes   map[string]*node
	anchors    map[string]string // anchor name -> pointer (in doc)
	doc        *document
}

func newResource(u string, dr draft, d *document) *resource {
	return &resource{url: u, draft: dr, doc: d, dynAnchors: map[string]string{}, dynNodes: map[string]*node{}, anchors: map[string]string{}}
}

// document is one loaded schema file (or the in-memory schema).
type document struct {
	url   string
	file  string // display name
	doc   any
	draft draft
	info  map[string]posInfo // schema positions by pointer
}

type posInfo struct {
	base *url.URL
	d    draft
	res  *resource
}

type resLoc struct {
	doc *document
	ptr string
	res *resource
}

// docLoader is what the engine needs from a loader: the decoded document
// at a URL (already scanned for refs), or why it cannot be had.
type docLoader interface {
	Load(rawURL string) (any, error)
}

type engine struct {
	load     docLoader
	describe func(docURL string) string // file name for messages
	inRoot   func(u *url.URL) bool      // a file the loader could serve (nil: none)

	docs      map[string]*document
	resources map[string]resLoc
	nodes     map[nodeKey]*node
	metaNodes map[draft]*node
	allRes    []*resource
}

func newEngine(l docLoader, describe func(string) string, inRoot func(*url.URL) bool) *engine {
	return &engine{load: l, describe: describe, inRoot: inRoot,
		docs: map[string]*document{}, resources: map[string]resLoc{},
		nodes: map[nodeKey]*node{}, metaNodes: map[draft]*node{}}
}

// compileRoot compiles the document doc found at docURL.
func (e *engine) compileRoot(docURL string, doc any) (*node, error) {
	d, err := e.addDocument(docURL, doc)
	if err != nil {
		return nil, err
	}
	root, err := e.nodeAt(d, "")
	if err != nil {
		return nil, err
	}
	// Dynamic anchors are targets reached at validation time: build them now.
	for i := 0; i < len(e.allRes); i++ {
		r := e.allRes[i]
		for _, name := range sortedKeys(r.dynAnchors) {
			n, err := e.nodeAt(r.doc, r.dynAnchors[name])
			if err != nil {
				return nil, err
			}
			r.dynNodes[name] = n
		}
	}
	return root, nil
}

// addDocument registers a document: its draft, self-check, resources and
// anchors.
func (e *engine) addDocument(docURL string, doc any) (*document, error) {
	file := e.describe(docURL)
	d := &document{url: docURL, file: file, doc: doc, draft: draft2020, info: map[string]posInfo{}}
	if obj, ok := doc.(map[string]any); ok {
		if s, ok := obj["$schema"].(string); ok {
			dr, known := draftOfURL(s)
			if !known {
				return nil, e.unknownMetaschema(docURL, file, s)
			}
			d.draft = dr
		}
	}
	if is := metaCheck(doc, "", d.draft); is != nil {
		return nil, &CompileError{File: file, Pointer: is.ptr, Message: "not a valid JSON Schema: " + is.msg}
	}
	e.docs[docURL] = d
	base, err := url.Parse(docURL)
	if err != nil {
		return nil, &CompileError{File: file, Message: fmt.Sprintf("internal: bad document URL %q: %v", docURL, err)}
	}
	root := newResource(docURL, d.draft, d)
	e.allRes = append(e.allRes, root)
	e.resources[docURL] = resLoc{d, "", root}
	if err := e.index(d, doc, "", base, d.draft, root, true); err != nil {
		return nil, err
	}
	return d, nil
}

func (e *engine) unknownMetaschema(docURL, file, s string) *CompileError {
	u, err := url.Parse(s)
	outside := true
	if err == nil {
		if b, berr := url.Parse(docURL); berr == nil {
			t := b.ResolveReference(u)
			if e.inRoot != nil && e.inRoot(t) {
				outside = false
			}
		}
	}
	msg := fmt.Sprintf("$schema %q is not one of the standard drafts (draft-04, draft-06, draft-07, 2019-09, 2020-12); custom metaschemas are never loaded", s)
	if outside {
		msg = fmt.Sprintf("$schema %q is not one of the standard drafts and would be read from outside the story's schemas directory; use e.g. \"https://json-schema.org/draft/2020-12/schema\"", s)
	}
	return &CompileError{File: file, Message: msg, outside: outside}
}

// index records the schema positions of a document with their base URI,
// draft and resource, and the resources and anchors they define.
func (e *engine) index(d *document, v any, ptr string, base *url.URL, dr draft, res *resource, isRoot bool) error {
	obj, ok := v.(map[string]any)
	if !ok {
		d.info[ptr] = posInfo{base, dr, res}
		return nil
	}
	newDraft := dr
	if !isRoot {
		var err error
		if newDraft, err = e.embeddedDraftAt(d, obj, ptr, dr); err != nil {
			return err
		}
	}
	_, hasRef := obj["$ref"]
	idIgnored := newDraft <= draft7 && hasRef
	if id, ok := obj[newDraft.idKeyword()].(string); ok && id != "" && !idIgnored {
		var err error
		if base, dr, res, err = e.indexID(d, id, ptr, base, dr, newDraft, res, isRoot); err != nil {
			return err
		}
	}
	if err := e.indexAnchors(d, obj, ptr, dr, res); err != nil {
		return err
	}
	d.info[ptr] = posInfo{base, dr, res}
	var err error
	eachPosition(obj, ptr, dr, func(sub any, sp string) {
		if err == nil {
			err = e.index(d, sub, sp, base, dr, res, false)
		}
	})
	return err
}

// embeddedDraftAt is the draft of the subschema obj at ptr (inside a
// schema of draft dr); an unknown $schema there is refused.
func (e *engine) embeddedDraftAt(d *document, obj map[string]any, ptr string, dr draft) (draft, error) {
	if s, ok := obj["$schema"].(string); ok {
		if _, known := draftOfURL(s); !known {
			err := e.unknownMetaschema(d.url, d.file, s)
			err.Pointer = ptr + "/$schema"
			return 0, err
		}
	}
	return embeddedDraft(obj, dr), nil
}

// indexID records the resource that the id (of draft newDraft) at ptr
// names, and for drafts up to 7 the anchor its plain-name fragment
// defines. It returns the base URI, draft and resource in force there.
func (e *engine) indexID(d *document, id, ptr string, base *url.URL, dr, newDraft draft, res *resource, isRoot bool) (*url.URL, draft, *resource, error) {
	u, err := url.Parse(id)
	if err != nil {
		return nil, 0, nil, &CompileError{File: d.file, Pointer: ptr + "/" + newDraft.idKeyword(), Message: fmt.Sprintf("%s %q is not a valid URI reference: %v", newDraft.idKeyword(), id, err)}
	}
	t := resolveURI(base, u)
	frag := t.Fragment
	t.Fragment, t.RawFragment = "", ""
	if stripFragment(id) != "" {
		key := t.String()
		if prev, dup := e.resources[key]; dup && !(prev.doc == d && prev.ptr == ptr) {
			return nil, 0, nil, &CompileError{File: d.file, Pointer: ptr + "/" + newDraft.idKeyword(), Message: fmt.Sprintf("duplicate %s %q: %s#%s names the same resource", newDraft.idKeyword(), id, prev.doc.file, prev.ptr)}
		}
		if !isRoot {
			res = newResource(key, newDraft, d)
			e.allRes = append(e.allRes, res)
		}
		e.resources[key] = resLoc{d, ptr, res}
		base = t
		dr = newDraft
	}
	if dr <= draft7 && frag != "" && !strings.HasPrefix(frag, "/") {
		if err := e.addAnchor(d, res, frag, ptr, dr.idKeyword()); err != nil {
			return nil, 0, nil, err
		}
	}
	return base, dr, res, nil
}

// indexAnchors records the $anchor and $dynamicAnchor of obj at ptr, and
// marks res recursive when its root has "$recursiveAnchor": true.
func (e *engine) indexAnchors(d *document, obj map[string]any, ptr string, dr draft, res *resource) error {
	if dr >= draft2019 {
		if a, ok := obj["$anchor"].(string); ok {
			if err := e.addAnchor(d, res, a, ptr, "$anchor"); err != nil {
				return err
			}
		}
	}
	if dr == draft2020 {
		if a, ok := obj["$dynamicAnchor"].(string); ok {
			if err := e.addAnchor(d, res, a, ptr, "$dynamicAnchor"); err != nil {
				return err
			}
			if _, dup := res.dynAnchors[a]; !dup {
				res.dynAnchors[a] = ptr
			}
		}
	}
	if dr >= draft2019 {
		if b, ok := obj["$recursiveAnchor"].(bool); ok && b && e.resources[res.url].ptr == ptr && e.resources[res.url].doc == d {
			res.recursive = true
		}
	}
	return nil
}

func (e *engine) addAnchor(d *document, res *resource, name, ptr, kw string) error {
	if prev, dup := res.anchors[name]; dup {
		if prev == ptr {
			return nil
		}
		return &CompileError{File: d.file, Pointer: ptr + "/" + kw, Message: fmt.Sprintf("duplicate anchor %q: already defined at %s in this schema resource", name, prev)}
	}
	res.anchors[name] = ptr
	return nil
}

// eachPosition calls f for every subschema position of obj in draft dr.
func eachPosition(obj map[string]any, ptr string, dr draft, f func(sub any, ptr string)) {
	one := func(kw string) {
		if v, ok := obj[kw]; ok {
			f(v, ptr+"/"+kw)
		}
	}
	list := func(kw string) {
		if arr, ok := obj[kw].([]any); ok {
			for i, v := range arr {
				f(v, ptr+"/"+kw+"/"+strconv.Itoa(i))
			}
		}
	}
	named := func(kw string) {
		if m, ok := obj[kw].(map[string]any); ok {
			for _, k := range sortedKeys(m) {
				if kw == "dependencies" {
					if _, isArr := m[k].([]any); isArr {
						continue
					}
				}
				f(m[k], ptr+"/"+kw+"/"+escapePointer(k))
			}
		}
	}
	named("definitions")
	one("not")
	list("allOf")
	list("anyOf")
	list("oneOf")
	named("properties")
	one("additionalProperties")
	named("patternProperties")
	if _, isArr := obj["items"].([]any); isArr {
		list("items")
	} else {
		one("items")
	}
	one("additionalItems")
	named("dependencies")
	if dr >= draft6 {
		one("propertyNames")
		one("contains")
	}
	if dr >= draft7 {
		one("if")
		one("then")
		one("else")
	}
	if dr >= draft2019 {
		named("$defs")
		named("dependentSchemas")
		one("unevaluatedProperties")
		one("unevaluatedItems")
		one("contentSchema")
	}
	if dr >= draft2020 {
		list("prefixItems")
	}
}

// lookupPointer follows a JSON pointer into v.
func lookupPointer(v any, ptr string) (any, bool, bool) {
	if ptr == "" {
		return v, true, true
	}
	if ptr[0] != '/' {
		return nil, false, false
	}
	for _, tok := range strings.Split(ptr[1:], "/") {
		t, ok := unescapePointer(tok)
		if !ok {
			return nil, false, false
		}
		switch x := v.(type) {
		case map[string]any:
			v, ok = x[t]
			if !ok {
				return nil, false, true
			}
		case []any:
			i, err := strconv.Atoi(t)
			if err != nil || i < 0 || i >= len(x) || strconv.Itoa(i) != t {
				return nil, false, true
			}
			v = x[i]
		default:
			return nil, false, true
		}
	}
	return v, true, true
}

func unescapePointer(tok string) (string, bool) {
	if !strings.Contains(tok, "~") {
		return tok, true
	}
	var sb strings.Builder
	for i := 0; i < len(tok); i++ {
		if tok[i] != '~' {
			sb.WriteByte(tok[i])
			continue
		}
		if i+1 >= len(tok) {
			return "", false
		}
		switch tok[i+1] {
		case '0':
			sb.WriteByte('~')
		case '1':
			sb.WriteByte('/')
		default:
			return "", false
		}
		i++
	}
	return sb.String(), true
}

// infoAt finds the base, draft and resource of any pointer: its own entry
// or that of its nearest indexed ancestor.
func (d *document) infoAt(ptr string) posInfo {
	for p := ptr; ; {
		if in, ok := d.info[p]; ok {
			return in
		}
		i := strings.LastIndexByte(p, '/')
		if i < 0 {
			return d.info[""]
		}
		p = p[:i]
	}
}

// resolve compiles the target of a reference written at ptr/kw in d.
func (e *engine) resolve(d *document, ptr string, base *url.URL, kw, ref string) (*node, error) {
	site := ptr + "/" + escapePointer(kw)
	fail := func(msg string, outside bool) error {
		return &CompileError{File: d.file, Pointer: site, Ref: ref, Message: fmt.Sprintf("%s %q %s", kw, ref, msg), outside: outside}
	}
	u, err := url.Parse(ref)
	if err != nil {
		return nil, fail("is not a valid URI reference: "+err.Error(), false)
	}
	t := resolveURI(base, u)
	frag := t.Fragment
	t.Fragment, t.RawFragment = "", ""
	resURL := t.String()
	if md, ok := metaDraftOfURL(resURL); ok {
		if frag != "" {
			return nil, fail("points inside a built-in metaschema, which kitsoki does not embed; copy the definition you need under $defs", false)
		}
		if n, ok := e.metaNodes[md]; ok {
			return n, nil
		}
		n := &node{draft: md, meta: md, loc: resURL, minLength: -1, maxLength: -1, minItems: -1, maxItems: -1}
		e.metaNodes[md] = n
		return n, nil
	}
	loc, ok := e.resources[resURL]
	if !ok {
		if _, loaded := e.docs[resURL]; !loaded {
			doc, lerr := e.load.Load(resURL)
			if lerr != nil {
				if ce, ok := asCompileError(lerr); ok {
					return nil, ce
				}
				le, isLoad := lerr.(*loadError)
				return nil, fail("cannot be loaded: "+lerr.Error(), isLoad && le.outside)
			}
			if _, err := e.addDocument(resURL, doc); err != nil {
				return nil, err
			}
		}
		if loc, ok = e.resources[resURL]; !ok {
			return nil, fail("points at nothing: no schema has that URI", false)
		}
	}
	ptrTo := loc.ptr
	if frag != "" && !strings.HasPrefix(frag, "/") {
		a, ok := loc.res.anchors[frag]
		if !ok {
			return nil, fail("names an anchor that does not exist", false)
		}
		ptrTo = a
	} else if frag != "" {
		ptrTo += frag
	}
	v, found, valid := lookupPointer(loc.doc.doc, ptrTo)
	if !valid {
		return nil, fail("has an invalid JSON pointer fragment", false)
	}
	if !found {
		return nil, fail("points at nothing: no such JSON pointer in the target schema", false)
	}
	switch v.(type) {
	case bool, map[string]any:
	default:
		return nil, fail(fmt.Sprintf("points at %s, not a schema", describeJSON(v)), false)
	}
	if _, known := loc.doc.info[ptrTo]; !known {
		// A target outside the positions the self-check walked (under an
		// unknown keyword) is checked as the schema it is used as.
		if is := metaCheck(v, ptrTo, loc.doc.infoAt(ptrTo).d); is != nil {
			return nil, &CompileError{File: loc.doc.file, Pointer: is.ptr, Message: "not a valid JSON Schema: " + is.msg}
		}
	}
	return e.nodeAt(loc.doc, ptrTo)
}

// resolveURI resolves ref against base. Against an opaque base
// ("urn:x", "http:x") a relative ref keeps the base's opaque part, as the
// library did: net/url would drop it.
func resolveURI(base, ref *url.URL) *url.URL {
	t := base.ResolveReference(ref)
	if base.Opaque != "" && !ref.IsAbs() {
		t.Opaque = base.Opaque
	}
	return t
}
