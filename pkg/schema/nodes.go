package schema

import (
	"fmt"
	"maps"
	"math"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// The compiled form: one node per schema position reached from the root,
// shared when several references lead to it (so recursive schemas are
// finite graphs). Building it resolves every reference, loads every
// referenced file through the loader and runs the self-check on it.

type node struct {
	draft  draft
	loc    string // document URL + "#" + pointer, for messages
	res    *resource
	isBool bool
	bval   bool
	meta   draft // nonzero: stands for a built-in metaschema

	refOnly      bool // draft ≤ 7: "$ref" replaces every sibling
	ref          *node
	recursiveRef *node
	recAnchor    bool // this node has "$recursiveAnchor": true
	dynRef       *node
	dynRefAnchor string // the plain-name fragment of $dynamicRef
	dynAnchor    string // this node's $dynamicAnchor

	types      jsonType
	hasConst   bool
	constV     any
	hasEnum    bool
	enum       []any
	format     formatCheck
	formatName string

	minimum, maximum, exclMin, exclMax, multipleOf *decimal

	minLength, maxLength int
	pattern              *regexp.Regexp

	minItems, maxItems int
	uniqueItems        bool
	prefix             []*node
	rest               *node // items after the prefix
	restForbidden      bool  // additionalItems: false
	contains           *node
	minContains        int // -1: absent
	maxContains        int

	minProps, maxProps int
	required           []string
	props              map[string]*node
	patternProps       []patternProp
	additional         *node
	additionalFalse    bool
	propertyNames      *node
	deps               []dependency

	allOf, anyOf, oneOf []*node
	not                 *node
	ifN, thenN, elseN   *node
	unevalProps         *node
	unevalItems         *node
}

type patternProp struct {
	re *regexp.Regexp
	n  *node
}

// dependency is one "dependencies"/"dependentRequired"/"dependentSchemas"
// entry: when prop is present, names are required or the schema applies.
type dependency struct {
	kw    string
	prop  string
	names []string
	n     *node
}

func (n *node) hasUneval() bool { return n.unevalProps != nil || n.unevalItems != nil }

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
	nodes     map[string]*node
	metaNodes map[draft]*node
	allRes    []*resource
}

func newEngine(l docLoader, describe func(string) string, inRoot func(*url.URL) bool) *engine {
	return &engine{load: l, describe: describe, inRoot: inRoot,
		docs: map[string]*document{}, resources: map[string]resLoc{},
		nodes: map[string]*node{}, metaNodes: map[draft]*node{}}
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
		for _, name := range slices.Sorted(maps.Keys(r.dynAnchors)) {
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

func (e *engine) unknownMetaschema(docURL, file, s string) error {
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
	_, hasRef := obj["$ref"]
	idIgnored := dr <= draft7 && hasRef
	if id, ok := obj[dr.idKeyword()].(string); ok && id != "" && !idIgnored {
		u, err := url.Parse(id)
		if err != nil {
			return &CompileError{File: d.file, Pointer: ptr + "/" + dr.idKeyword(), Message: fmt.Sprintf("%s %q is not a valid URI reference: %v", dr.idKeyword(), id, err)}
		}
		t := base.ResolveReference(u)
		frag := t.Fragment
		t.Fragment, t.RawFragment = "", ""
		if stripFragment(id) != "" {
			newDraft := dr
			if !isRoot {
				if s, ok := obj["$schema"].(string); ok {
					if nd, known := draftOfURL(s); known {
						newDraft = nd
					}
				}
			}
			key := t.String()
			if prev, dup := e.resources[key]; dup && !(prev.doc == d && prev.ptr == ptr) {
				return &CompileError{File: d.file, Pointer: ptr + "/" + dr.idKeyword(), Message: fmt.Sprintf("duplicate %s %q: %s#%s names the same resource", dr.idKeyword(), id, prev.doc.file, prev.ptr)}
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
				return err
			}
		}
	}
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
	d.info[ptr] = posInfo{base, dr, res}
	var err error
	eachPosition(obj, ptr, dr, func(sub any, sp string) {
		if err == nil {
			err = e.index(d, sub, sp, base, dr, res, false)
		}
	})
	return err
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
			for _, k := range slices.Sorted(maps.Keys(m)) {
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

// nodeAt compiles (once) the schema at ptr in d.
func (e *engine) nodeAt(d *document, ptr string) (*node, error) {
	key := d.url + "#" + ptr
	if n, ok := e.nodes[key]; ok {
		return n, nil
	}
	v, found, _ := lookupPointer(d.doc, ptr)
	if !found {
		return nil, &CompileError{File: d.file, Pointer: ptr, Message: "internal: no schema at this pointer"}
	}
	in := d.infoAt(ptr)
	n := &node{draft: in.d, loc: d.file + "#" + ptr, res: in.res, minLength: -1, maxLength: -1, minItems: -1, maxItems: -1,
		minContains: -1, maxContains: -1, minProps: -1, maxProps: -1}
	e.nodes[key] = n
	switch x := v.(type) {
	case bool:
		n.isBool, n.bval = true, x
		return n, nil
	case map[string]any:
		return n, e.fill(n, d, ptr, x, in)
	}
	return nil, &CompileError{File: d.file, Pointer: ptr, Message: fmt.Sprintf("a schema must be an object or a boolean, got %s", describeJSON(v))}
}

func (e *engine) fill(n *node, d *document, ptr string, obj map[string]any, in posInfo) error {
	dr := in.d
	sub := func(kw string) (*node, error) {
		if _, ok := obj[kw]; !ok {
			return nil, nil
		}
		return e.nodeAt(d, ptr+"/"+kw)
	}
	subList := func(kw string) ([]*node, error) {
		arr, ok := obj[kw].([]any)
		if !ok {
			return nil, nil
		}
		out := make([]*node, len(arr))
		for i := range arr {
			c, err := e.nodeAt(d, ptr+"/"+kw+"/"+strconv.Itoa(i))
			if err != nil {
				return nil, err
			}
			out[i] = c
		}
		return out, nil
	}
	var err error
	if ref, ok := obj["$ref"].(string); ok {
		if n.ref, err = e.resolve(d, ptr, in.base, "$ref", ref); err != nil {
			return err
		}
		if dr <= draft7 {
			n.refOnly = true
			return nil
		}
	}
	if dr >= draft2019 {
		if ref, ok := obj["$recursiveRef"].(string); ok {
			if n.recursiveRef, err = e.resolve(d, ptr, in.base, "$recursiveRef", ref); err != nil {
				return err
			}
		}
		n.recAnchor, _ = obj["$recursiveAnchor"].(bool)
	}
	if dr == draft2020 {
		if ref, ok := obj["$dynamicRef"].(string); ok {
			if n.dynRef, err = e.resolve(d, ptr, in.base, "$dynamicRef", ref); err != nil {
				return err
			}
			if u, perr := url.Parse(ref); perr == nil && u.Fragment != "" && !strings.HasPrefix(u.Fragment, "/") {
				n.dynRefAnchor = u.Fragment
			}
		}
		n.dynAnchor, _ = obj["$dynamicAnchor"].(string)
	}

	// applicators
	if n.allOf, err = subList("allOf"); err != nil {
		return err
	}
	if n.anyOf, err = subList("anyOf"); err != nil {
		return err
	}
	if n.oneOf, err = subList("oneOf"); err != nil {
		return err
	}
	if n.not, err = sub("not"); err != nil {
		return err
	}
	if dr <= draft2019 {
		if _, isArr := obj["items"].([]any); isArr {
			if n.prefix, err = subList("items"); err != nil {
				return err
			}
			if b, ok := obj["additionalItems"].(bool); ok {
				n.restForbidden = !b
			} else if n.rest, err = sub("additionalItems"); err != nil {
				return err
			}
		} else if n.rest, err = sub("items"); err != nil {
			return err
		}
	} else {
		if n.prefix, err = subList("prefixItems"); err != nil {
			return err
		}
		if n.rest, err = sub("items"); err != nil {
			return err
		}
	}
	if m, ok := obj["properties"].(map[string]any); ok {
		n.props = make(map[string]*node, len(m))
		for k := range m {
			if n.props[k], err = e.nodeAt(d, ptr+"/properties/"+escapePointer(k)); err != nil {
				return err
			}
		}
	}
	if m, ok := obj["patternProperties"].(map[string]any); ok {
		for _, k := range slices.Sorted(maps.Keys(m)) {
			re, rerr := regexp.Compile(k)
			if rerr != nil {
				return &CompileError{File: d.file, Pointer: ptr + "/patternProperties/" + escapePointer(k), Message: fmt.Sprintf("invalid regex %q: %v", k, rerr)}
			}
			c, err := e.nodeAt(d, ptr+"/patternProperties/"+escapePointer(k))
			if err != nil {
				return err
			}
			n.patternProps = append(n.patternProps, patternProp{re, c})
		}
	}
	if b, ok := obj["additionalProperties"].(bool); ok {
		n.additionalFalse = !b
		if b {
			n.additional = &node{isBool: true, bval: true, draft: dr, loc: n.loc + "/additionalProperties", res: n.res}
		}
	} else if n.additional, err = sub("additionalProperties"); err != nil {
		return err
	}
	if m, ok := obj["dependencies"].(map[string]any); ok {
		for _, k := range slices.Sorted(maps.Keys(m)) {
			dep := dependency{kw: "dependencies", prop: k}
			if arr, isArr := m[k].([]any); isArr {
				dep.names = stringsOf(arr)
			} else if dep.n, err = e.nodeAt(d, ptr+"/dependencies/"+escapePointer(k)); err != nil {
				return err
			}
			n.deps = append(n.deps, dep)
		}
	}

	// validation
	if t, ok := obj["type"]; ok {
		switch x := t.(type) {
		case string:
			n.types = typeNamed(x)
		case []any:
			for _, e := range x {
				if s, ok := e.(string); ok {
					n.types |= typeNamed(s)
				}
			}
		}
	}
	if arr, ok := obj["enum"].([]any); ok {
		n.hasEnum, n.enum = true, arr
	}
	n.multipleOf = decimalOf(obj["multipleOf"])
	n.maximum = decimalOf(obj["maximum"])
	n.minimum = decimalOf(obj["minimum"])
	if dr == draft4 {
		if b, _ := obj["exclusiveMaximum"].(bool); b {
			n.exclMax, n.maximum = n.maximum, nil
		}
		if b, _ := obj["exclusiveMinimum"].(bool); b {
			n.exclMin, n.minimum = n.minimum, nil
		}
	} else {
		n.exclMax = decimalOf(obj["exclusiveMaximum"])
		n.exclMin = decimalOf(obj["exclusiveMinimum"])
	}
	n.minLength = countOf(obj["minLength"])
	n.maxLength = countOf(obj["maxLength"])
	if p, ok := obj["pattern"].(string); ok {
		re, rerr := regexp.Compile(p)
		if rerr != nil {
			return &CompileError{File: d.file, Pointer: ptr + "/pattern", Message: fmt.Sprintf("invalid regex %q: %v", p, rerr)}
		}
		n.pattern = re
	}
	n.minItems = countOf(obj["minItems"])
	n.maxItems = countOf(obj["maxItems"])
	n.uniqueItems, _ = obj["uniqueItems"].(bool)
	n.minProps = countOf(obj["minProperties"])
	n.maxProps = countOf(obj["maxProperties"])
	if arr, ok := obj["required"].([]any); ok {
		n.required = stringsOf(arr)
	}
	if f, ok := obj["format"].(string); ok && dr <= draft7 {
		if c := formatChecker(f); c != nil {
			n.format, n.formatName = c, f
		}
	}

	if dr >= draft6 {
		if n.contains, err = sub("contains"); err != nil {
			return err
		}
		if n.propertyNames, err = sub("propertyNames"); err != nil {
			return err
		}
		if c, ok := obj["const"]; ok {
			n.hasConst, n.constV = true, c
		}
	}
	if dr >= draft7 {
		if n.ifN, err = sub("if"); err != nil {
			return err
		}
		if n.ifN != nil {
			if n.thenN, err = sub("then"); err != nil {
				return err
			}
			if n.elseN, err = sub("else"); err != nil {
				return err
			}
		}
	}
	if dr >= draft2019 {
		if n.contains != nil {
			n.minContains = countOf(obj["minContains"])
			n.maxContains = countOf(obj["maxContains"])
		}
		if m, ok := obj["dependentSchemas"].(map[string]any); ok {
			for _, k := range slices.Sorted(maps.Keys(m)) {
				c, err := e.nodeAt(d, ptr+"/dependentSchemas/"+escapePointer(k))
				if err != nil {
					return err
				}
				n.deps = append(n.deps, dependency{kw: "dependentSchemas", prop: k, n: c})
			}
		}
		if m, ok := obj["dependentRequired"].(map[string]any); ok {
			for _, k := range slices.Sorted(maps.Keys(m)) {
				if arr, ok := m[k].([]any); ok {
					n.deps = append(n.deps, dependency{kw: "dependentRequired", prop: k, names: stringsOf(arr)})
				}
			}
		}
		if n.unevalItems, err = sub("unevaluatedItems"); err != nil {
			return err
		}
		if n.unevalProps, err = sub("unevaluatedProperties"); err != nil {
			return err
		}
	}
	return nil
}

func stringsOf(arr []any) []string {
	out := make([]string, 0, len(arr))
	for _, e := range arr {
		if s, ok := e.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

func decimalOf(v any) *decimal {
	if v == nil || typeOf(v) != tNumber {
		return nil
	}
	d, ok := toDecimal(v)
	if !ok {
		return nil
	}
	return &d
}

// countOf reads a non-negative integer keyword; -1 when absent or not one.
func countOf(v any) int {
	d := decimalOf(v)
	if d == nil || !d.isInteger() || d.neg && !d.isZero() {
		return -1
	}
	if d.isZero() {
		return 0
	}
	if int64(len(d.digits))+d.exp > 18 {
		return math.MaxInt
	}
	n, err := strconv.ParseInt(d.digits+strings.Repeat("0", int(d.exp)), 10, 64)
	if err != nil {
		return math.MaxInt
	}
	return int(n)
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
	t := base.ResolveReference(u)
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
	return e.nodeAt(loc.doc, ptrTo)
}
