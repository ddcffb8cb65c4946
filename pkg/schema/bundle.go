package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
)

// Bundling: every schema kitsoki sends anywhere (an MCP tool's
// inputSchema/outputSchema, AskRequest.schema, a local model's
// response_format, the claude CLI's --json-schema) must be readable by a
// client that has only that one document. A schema file whose $refs name
// other files under schemas/ is therefore bundled:
//
//   - every referenced file is inlined once under the root's $defs
//     (definitions for drafts 4-7), keyed by its path below schemas/;
//   - every $ref of the root and of the inlined files is rewritten to a
//     plain JSON pointer into the bundle ("#/$defs/common.json/$defs/x"),
//     anchors ("common.json#action") included;
//   - $id and $schema are kept on the root only: nested resources lose
//     their $id (their refs no longer need a base), and an $anchor that
//     would collide with one already in the bundle is dropped (no ref
//     depends on it any more);
//   - the bundle must compile on its own (nothing outside it resolves);
//     otherwise Compile fails naming the file.
//
// A file with no external reference is sent byte-for-byte as written.
// The inlined files must use the root's draft (the library gives a file
// without $schema draft 2020-12): one document has one draft, and
// inlining a draft-07 file under a 2020-12 root would change what it
// accepts.

// bundleDoc is one loaded file taking part in a bundle.
type bundleDoc struct {
	rel    string // root-relative slash path
	url    string // absolute file URL (no fragment)
	doc    any    // a private decoded copy, rewritten in place
	prefix string // JSON pointer of the document inside the bundle ("" for the root)
}

// location is where a resource or anchor sits: a document and the JSON
// pointer inside it.
type location struct {
	d   *bundleDoc
	ptr string
}

type bundler struct {
	l       *rootLoader
	root    *bundleDoc
	docs    []*bundleDoc
	byURL   map[string]*bundleDoc
	res     map[string]location // resource URI (no fragment) -> location
	anchors map[string]location // resource URI + "#" + anchor -> location
	idKw    string              // "$id", or "id" for draft-04
	defsKw  string
}

// bundle returns the self-contained form of the compiled root file rel
// (raw, its bytes as read). When no reference leaves the file, raw itself.
func (c *Compiler) bundle(l *rootLoader, rel string, raw []byte) ([]byte, error) {
	rootURL := l.fileURL(rel)
	if !refersOutside(l, rel, rootURL) {
		return raw, nil
	}
	doc, err := decodeSchema(display(rel), raw)
	if err != nil {
		return nil, err
	}
	draft := declaredDraft(doc)
	b := newBundler(l, draft)
	b.root = &bundleDoc{rel: rel, url: rootURL, doc: doc}
	b.add(b.root)
	if err := b.loadReachable(draft); err != nil {
		return nil, err
	}
	// Place the referenced files under the root's $defs.
	rootObj, ok := doc.(map[string]any)
	if !ok {
		return nil, &CompileError{File: display(rel), Message: "cannot be bundled: the schema is not a JSON object but references other files"}
	}
	if err := b.place(rootObj); err != nil {
		return nil, err
	}
	return encodeBundle(rel, rootObj)
}

// refersOutside reports whether a reference site of the compiled root file
// rel names another file (the built-in metaschemas aside).
func refersOutside(l *rootLoader, rel, rootURL string) bool {
	for _, s := range l.sites {
		if s.target == "" {
			continue
		}
		t, err := url.Parse(s.target)
		if err != nil || isMetaschemaURL(t) {
			continue
		}
		if s.file != display(rel) || stripFragment(s.target) != rootURL {
			return true
		}
	}
	return false
}

// newBundler starts a bundle of documents in draft (as declaredDraft names
// it), which decides the id and definitions keywords.
func newBundler(l *rootLoader, draft string) *bundler {
	b := &bundler{l: l, byURL: map[string]*bundleDoc{}, res: map[string]location{}, anchors: map[string]location{},
		idKw: "$id", defsKw: "$defs"}
	switch draft {
	case "draft-04":
		b.idKw, b.defsKw = "id", "definitions"
	case "draft-06", "draft-07":
		b.defsKw = "definitions"
	}
	return b
}

// loadReachable loads every file reachable through references from the
// documents added so far, breadth first.
func (b *bundler) loadReachable(draft string) error {
	for i := 0; i < len(b.docs); i++ {
		for _, t := range b.targets(b.docs[i]) {
			if err := b.load(t, draft); err != nil {
				return err
			}
		}
	}
	return nil
}

// load adds the file that reference target t names, unless it is loaded
// already or is a built-in metaschema; it must be in draft too.
func (b *bundler) load(t, draft string) error {
	rel := b.root.rel
	if _, ok := b.res[stripFragment(t)]; ok {
		return nil
	}
	tu, err := url.Parse(t)
	if err != nil || isMetaschemaURL(tu) {
		return nil
	}
	trel, ok := b.l.relOf(tu)
	if !ok {
		return &CompileError{File: display(rel), Message: fmt.Sprintf("cannot be bundled: a reference resolves to %s, outside the schemas directory", stripFragment(t)), outside: true}
	}
	if _, seen := b.byURL[b.l.fileURL(trel)]; seen {
		return nil // a file already loaded, at a URI none of its resources has
	}
	data, err := b.l.read(trel)
	if err != nil {
		return err
	}
	d, err := decodeSchema(display(trel), data)
	if err != nil {
		return err
	}
	if got := declaredDraft(d); got != draft {
		return &CompileError{File: display(trel), Message: fmt.Sprintf(
			"is %s but the schema %s that references it is %s; a schema kitsoki sends is bundled into one document with one draft, so declare the same \"$schema\" in both files",
			draftName(got), display(rel), draftName(draft))}
	}
	b.add(&bundleDoc{rel: trel, url: b.l.fileURL(trel), doc: d})
	return nil
}

// place rewrites every document's references to pointers into the bundle
// and puts the referenced files under the root's definitions keyword.
func (b *bundler) place(rootObj map[string]any) error {
	defs, _ := rootObj[b.defsKw].(map[string]any)
	if defs == nil {
		if _, exists := rootObj[b.defsKw]; exists {
			return &CompileError{File: display(b.root.rel), Pointer: "/" + b.defsKw, Message: "cannot be bundled: " + b.defsKw + " is not an object"}
		}
		defs = map[string]any{}
	}
	keys := make([]string, len(b.docs))
	taken := map[string]bool{}
	for i, d := range b.docs[1:] {
		key := d.rel
		for n := 2; defs[key] != nil || taken[key]; n++ {
			key = fmt.Sprintf("%s~%d", d.rel, n)
		}
		taken[key] = true
		keys[i+1] = key
		d.prefix = "/" + escapePointer(b.defsKw) + "/" + escapePointer(key)
	}
	// Rewrite every reference to a pointer into the bundle (each document
	// on its own, before it is placed: its refs resolve against its URL).
	seenAnchors := map[string]bool{}
	for _, d := range b.docs {
		base, _ := url.Parse(d.url)
		if err := b.rewrite(d, d.doc, "", base, d == b.root, seenAnchors); err != nil {
			return err
		}
	}
	for i, d := range b.docs[1:] {
		defs[keys[i+1]] = d.doc
	}
	if len(defs) > 0 {
		rootObj[b.defsKw] = defs
	}
	return nil
}

// encodeBundle writes the bundle of rel and checks that it compiles on its
// own.
func encodeBundle(rel string, rootObj map[string]any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(rootObj); err != nil {
		return nil, &CompileError{File: display(rel), Message: "cannot be bundled: " + err.Error()}
	}
	out := bytes.TrimRight(buf.Bytes(), "\n")
	if _, err := CompileBytes(display(rel), out); err != nil {
		return nil, &CompileError{File: display(rel), Message: "cannot be bundled into one self-contained document (" + err.Error() + "); keep its references to plain $ref/$anchor pointers"}
	}
	return out, nil
}

// add registers a loaded document and the resources and anchors it holds.
func (b *bundler) add(d *bundleDoc) {
	b.docs = append(b.docs, d)
	b.byURL[d.url] = d
	base, _ := url.Parse(d.url)
	b.res[d.url] = location{d, ""}
	b.index(d, d.doc, "", base)
}

func (b *bundler) index(d *bundleDoc, node any, ptr string, base *url.URL) {
	obj, ok := node.(map[string]any)
	if !ok {
		return
	}
	if id, ok := obj[b.idKw].(string); ok && id != "" {
		if u, err := url.Parse(id); err == nil {
			if strings.HasPrefix(id, "#") && u.Fragment != "" && !strings.HasPrefix(u.Fragment, "/") {
				b.anchors[stripFragment(base.String())+"#"+u.Fragment] = location{d, ptr}
			} else {
				base = base.ResolveReference(u)
				b.res[stripFragment(base.String())] = location{d, ptr}
				if base.Fragment != "" && !strings.HasPrefix(base.Fragment, "/") {
					b.anchors[stripFragment(base.String())+"#"+base.Fragment] = location{d, ptr}
				}
			}
		}
	}
	for _, kw := range []string{"$anchor", "$dynamicAnchor"} {
		if a, ok := obj[kw].(string); ok && a != "" {
			key := stripFragment(base.String()) + "#" + a
			if _, dup := b.anchors[key]; !dup {
				b.anchors[key] = location{d, ptr}
			}
		}
	}
	eachSubschema(obj, ptr, func(sub any, sp string) { b.index(d, sub, sp, base) })
}

// targets lists the resolved targets of every reference in d.
func (b *bundler) targets(d *bundleDoc) []string {
	var sites []refSite
	base, _ := url.Parse(d.url)
	walkSchema(d.doc, "", base, d.rel, map[string]bool{}, &sites)
	out := make([]string, 0, len(sites))
	for _, s := range sites {
		if s.target != "" {
			out = append(out, s.target)
		}
	}
	return out
}

// rewrite turns every reference below node into a bundle pointer and
// strips what only a separate resource may carry.
func (b *bundler) rewrite(d *bundleDoc, node any, ptr string, base *url.URL, isRoot bool, seenAnchors map[string]bool) error {
	obj, ok := node.(map[string]any)
	if !ok {
		return nil
	}
	top := isRoot && ptr == ""
	if id, ok := obj[b.idKw].(string); ok && id != "" {
		if u, err := url.Parse(id); err == nil {
			base = base.ResolveReference(u)
		}
		if !top {
			delete(obj, b.idKw)
		}
	}
	if !top {
		delete(obj, "$schema")
	}
	if a, ok := obj["$anchor"].(string); ok {
		if seenAnchors[a] {
			delete(obj, "$anchor")
		}
		seenAnchors[a] = true
	}
	for _, kw := range []string{"$ref", "$recursiveRef"} {
		ref, ok := obj[kw].(string)
		if !ok {
			continue
		}
		u, err := url.Parse(ref)
		if err != nil {
			continue
		}
		t := base.ResolveReference(u)
		if isMetaschemaURL(t) {
			continue
		}
		p, ok := b.pointerOf(t)
		if !ok {
			return &CompileError{File: display(d.rel), Pointer: ptr + "/" + escapePointer(kw), Ref: ref,
				Message: "cannot be bundled: the reference does not resolve to a location in a schema file under schemas/"}
		}
		obj[kw] = (&url.URL{Fragment: p}).String()
		if obj[kw] == "" {
			obj[kw] = "#"
		}
	}
	var err error
	eachSubschema(obj, ptr, func(sub any, sp string) {
		if err == nil {
			err = b.rewrite(d, sub, sp, base, isRoot, seenAnchors)
		}
	})
	return err
}

// pointerOf maps a resolved reference target to its JSON pointer in the
// bundle.
func (b *bundler) pointerOf(t *url.URL) (string, bool) {
	res := stripFragment(t.String())
	frag := t.Fragment
	if frag != "" && !strings.HasPrefix(frag, "/") {
		loc, ok := b.anchors[res+"#"+frag]
		if !ok {
			return "", false
		}
		return loc.d.prefix + loc.ptr, true
	}
	loc, ok := b.res[res]
	if !ok {
		return "", false
	}
	return loc.d.prefix + loc.ptr + frag, true
}

// eachSubschema calls f for every subschema position of obj, in a fixed
// order (the keywords walkSchema knows; map keys sorted).
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
				f(v, fmt.Sprintf("%s/%s/%d", ptr, kw, i))
			}
		}
	}
	for _, kw := range mapSchemaKeywords {
		m, ok := obj[kw].(map[string]any)
		if !ok {
			continue
		}
		names := sortedKeys(m)
		for _, name := range names {
			f(m[name], ptr+"/"+escapePointer(kw)+"/"+escapePointer(name))
		}
	}
}

// declaredDraft names the draft a document is compiled with: its $schema,
// else draft 2020-12 (the compiler's default).
func declaredDraft(doc any) string {
	obj, _ := doc.(map[string]any)
	s, _ := obj["$schema"].(string)
	switch {
	case s == "":
		return "2020-12"
	case strings.Contains(s, "draft-04"):
		return "draft-04"
	case strings.Contains(s, "draft-06"):
		return "draft-06"
	case strings.Contains(s, "draft-07"):
		return "draft-07"
	case strings.Contains(s, "2019-09"):
		return "2019-09"
	case strings.Contains(s, "2020-12"):
		return "2020-12"
	}
	return s
}

func draftName(d string) string {
	if d == "2019-09" || d == "2020-12" {
		return "draft " + d
	}
	return d
}
