package schema

import (
	"fmt"
	"math"
	"net/url"
	"regexp"
	"strconv"
	"strings"
)

// The compiled form: one node per schema position reached from the root,
// shared when several references lead to it (so recursive schemas are
// finite graphs). Building it resolves every reference, loads every
// referenced file through the loader and runs the self-check on it.

type node struct {
	draft draft
	// loc names the node in messages (location): "file#pointer", put
	// together from locDoc and locPtr when loc is empty.
	loc    string
	locDoc *document
	locPtr string
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

// location is loc, the node's name in messages.
func (n *node) location() string {
	if n.loc == "" && n.locDoc != nil {
		return n.locDoc.file + "#" + n.locPtr
	}
	return n.loc
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

// nodeAt compiles (once) the schema at ptr in d.
func (e *engine) nodeAt(d *document, ptr string) (*node, error) {
	if n, ok := e.nodes[nodeKey{d, ptr}]; ok {
		return n, nil
	}
	v, found, _ := lookupPointer(d.doc, ptr)
	if !found {
		return nil, &CompileError{File: d.file, Pointer: ptr, Message: "internal: no schema at this pointer"}
	}
	return e.nodeOf(d, ptr, v)
}

// nodeOf is nodeAt for v, the value at ptr in d (a caller walking the
// document has it at hand: no pointer lookup from the root).
func (e *engine) nodeOf(d *document, ptr string, v any) (*node, error) {
	key := nodeKey{d, ptr}
	if n, ok := e.nodes[key]; ok {
		return n, nil
	}
	in := d.infoAt(ptr)
	n := &node{draft: in.d, locDoc: d, locPtr: ptr, res: in.res, minLength: -1, maxLength: -1, minItems: -1, maxItems: -1,
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

// nodeKey names a compiled position: a document and a pointer in it.
type nodeKey struct {
	d   *document
	ptr string
}

// fill compiles the keywords of the schema object obj at ptr into n, step
// by step in a fixed order (the first error wins, and the order decides
// which nodes are compiled first).
func (e *engine) fill(n *node, d *document, ptr string, obj map[string]any, in posInfo) error {
	f := &filler{e: e, n: n, d: d, ptr: ptr, obj: obj, dr: in.d, base: in.base}
	if done, err := f.refs(); done || err != nil {
		return err
	}
	if err := f.applicators(); err != nil {
		return err
	}
	if err := f.items(); err != nil {
		return err
	}
	if err := f.properties(); err != nil {
		return err
	}
	if err := f.dependencies(); err != nil {
		return err
	}
	if err := f.validation(); err != nil {
		return err
	}
	if err := f.draft6(); err != nil {
		return err
	}
	if err := f.conditional(); err != nil {
		return err
	}
	return f.draft2019()
}

// filler is one schema object being compiled into its node.
type filler struct {
	e    *engine
	n    *node
	d    *document
	ptr  string
	obj  map[string]any
	dr   draft
	base *url.URL
}

// sub compiles the subschema under kw; nil when kw is absent.
func (f *filler) sub(kw string) (*node, error) {
	v, ok := f.obj[kw]
	if !ok {
		return nil, nil
	}
	return f.e.nodeOf(f.d, f.ptr+"/"+kw, v)
}

// subList compiles the subschemas listed under kw; nil when kw holds no
// array.
func (f *filler) subList(kw string) ([]*node, error) {
	arr, ok := f.obj[kw].([]any)
	if !ok {
		return nil, nil
	}
	out := make([]*node, len(arr))
	for i, v := range arr {
		c, err := f.e.nodeOf(f.d, f.ptr+"/"+kw+"/"+strconv.Itoa(i), v)
		if err != nil {
			return nil, err
		}
		out[i] = c
	}
	return out, nil
}

// named compiles the subschema under name in the object kw.
func (f *filler) named(kw, name string) (*node, error) {
	return f.e.nodeOf(f.d, f.ptr+"/"+kw+"/"+escapePointer(name), f.obj[kw].(map[string]any)[name])
}

// refs resolves $ref, $recursiveRef and $dynamicRef; done when a draft ≤ 7
// $ref replaces every sibling keyword.
func (f *filler) refs() (done bool, err error) {
	n, obj := f.n, f.obj
	if ref, ok := obj["$ref"].(string); ok {
		if n.ref, err = f.e.resolve(f.d, f.ptr, f.base, "$ref", ref); err != nil {
			return false, err
		}
		if f.dr <= draft7 {
			n.refOnly = true
			return true, nil
		}
	}
	if f.dr >= draft2019 {
		if ref, ok := obj["$recursiveRef"].(string); ok {
			if n.recursiveRef, err = f.e.resolve(f.d, f.ptr, f.base, "$recursiveRef", ref); err != nil {
				return false, err
			}
		}
		n.recAnchor, _ = obj["$recursiveAnchor"].(bool)
	}
	if f.dr == draft2020 {
		if ref, ok := obj["$dynamicRef"].(string); ok {
			if n.dynRef, err = f.e.resolve(f.d, f.ptr, f.base, "$dynamicRef", ref); err != nil {
				return false, err
			}
			if u, perr := url.Parse(ref); perr == nil && u.Fragment != "" && !strings.HasPrefix(u.Fragment, "/") {
				n.dynRefAnchor = u.Fragment
			}
		}
		n.dynAnchor, _ = obj["$dynamicAnchor"].(string)
	}
	return false, nil
}

// applicators compiles allOf, anyOf, oneOf and not.
func (f *filler) applicators() (err error) {
	n := f.n
	if n.allOf, err = f.subList("allOf"); err != nil {
		return err
	}
	if n.anyOf, err = f.subList("anyOf"); err != nil {
		return err
	}
	if n.oneOf, err = f.subList("oneOf"); err != nil {
		return err
	}
	n.not, err = f.sub("not")
	return err
}

// items compiles the item schemas: items (array form) and additionalItems
// up to 2019-09, prefixItems and items from 2020-12.
func (f *filler) items() (err error) {
	n := f.n
	if f.dr > draft2019 {
		if n.prefix, err = f.subList("prefixItems"); err != nil {
			return err
		}
		n.rest, err = f.sub("items")
		return err
	}
	if _, isArr := f.obj["items"].([]any); !isArr {
		n.rest, err = f.sub("items")
		return err
	}
	if n.prefix, err = f.subList("items"); err != nil {
		return err
	}
	if b, ok := f.obj["additionalItems"].(bool); ok {
		n.restForbidden = !b
		return nil
	}
	n.rest, err = f.sub("additionalItems")
	return err
}

// properties compiles properties, patternProperties and
// additionalProperties, each in sorted name order (so the first error, and
// which referenced file is read first, do not depend on map order).
func (f *filler) properties() (err error) {
	n, obj := f.n, f.obj
	if m, ok := obj["properties"].(map[string]any); ok {
		n.props = make(map[string]*node, len(m))
		for _, k := range sortedKeys(m) {
			if n.props[k], err = f.named("properties", k); err != nil {
				return err
			}
		}
	}
	if m, ok := obj["patternProperties"].(map[string]any); ok {
		for _, k := range sortedKeys(m) {
			re, rerr := regexp.Compile(k)
			if rerr != nil {
				return &CompileError{File: f.d.file, Pointer: f.ptr + "/patternProperties/" + escapePointer(k), Message: fmt.Sprintf("invalid regex %q: %v", k, rerr)}
			}
			c, err := f.named("patternProperties", k)
			if err != nil {
				return err
			}
			n.patternProps = append(n.patternProps, patternProp{re, c})
		}
	}
	if b, ok := obj["additionalProperties"].(bool); ok {
		n.additionalFalse = !b
		if b {
			n.additional = &node{isBool: true, bval: true, draft: f.dr, loc: n.location() + "/additionalProperties", res: n.res}
		}
		return nil
	}
	n.additional, err = f.sub("additionalProperties")
	return err
}

// dependencies compiles "dependencies": names required, or a schema, when
// a property is present.
func (f *filler) dependencies() (err error) {
	m, ok := f.obj["dependencies"].(map[string]any)
	if !ok {
		return nil
	}
	for _, k := range sortedKeys(m) {
		dep := dependency{kw: "dependencies", prop: k}
		if arr, isArr := m[k].([]any); isArr {
			dep.names = stringsOf(arr)
		} else if dep.n, err = f.named("dependencies", k); err != nil {
			return err
		}
		f.n.deps = append(f.n.deps, dep)
	}
	return nil
}

// validation reads the assertions holding no subschema: type, enum, the
// numeric bounds, the string, array and object bounds, pattern, required
// and format.
func (f *filler) validation() error {
	n, obj := f.n, f.obj
	if t, ok := obj["type"]; ok {
		n.types = typesOf(t)
	}
	if arr, ok := obj["enum"].([]any); ok {
		n.hasEnum, n.enum = true, arr
	}
	f.numeric()
	n.minLength = countOf(obj["minLength"])
	n.maxLength = countOf(obj["maxLength"])
	if p, ok := obj["pattern"].(string); ok {
		re, rerr := regexp.Compile(p)
		if rerr != nil {
			return &CompileError{File: f.d.file, Pointer: f.ptr + "/pattern", Message: fmt.Sprintf("invalid regex %q: %v", p, rerr)}
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
	if s, ok := obj["format"].(string); ok && f.dr <= draft7 {
		if c := formatChecker(s); c != nil {
			n.format, n.formatName = c, s
		}
	}
	return nil
}

// typesOf reads a "type" value: one name or a list of them.
func typesOf(t any) jsonType {
	var types jsonType
	switch x := t.(type) {
	case string:
		types = typeNamed(x)
	case []any:
		for _, e := range x {
			if s, ok := e.(string); ok {
				types |= typeNamed(s)
			}
		}
	}
	return types
}

// numeric reads multipleOf and the bounds (draft-04's boolean
// exclusiveMaximum/exclusiveMinimum turn maximum/minimum exclusive).
func (f *filler) numeric() {
	n, obj := f.n, f.obj
	n.multipleOf = decimalOf(obj["multipleOf"])
	n.maximum = decimalOf(obj["maximum"])
	n.minimum = decimalOf(obj["minimum"])
	if f.dr != draft4 {
		n.exclMax = decimalOf(obj["exclusiveMaximum"])
		n.exclMin = decimalOf(obj["exclusiveMinimum"])
		return
	}
	if b, _ := obj["exclusiveMaximum"].(bool); b {
		n.exclMax, n.maximum = n.maximum, nil
	}
	if b, _ := obj["exclusiveMinimum"].(bool); b {
		n.exclMin, n.minimum = n.minimum, nil
	}
}

// draft6 compiles the keywords draft-06 added: contains, propertyNames and
// const.
func (f *filler) draft6() (err error) {
	if f.dr < draft6 {
		return nil
	}
	n := f.n
	if n.contains, err = f.sub("contains"); err != nil {
		return err
	}
	if n.propertyNames, err = f.sub("propertyNames"); err != nil {
		return err
	}
	if c, ok := f.obj["const"]; ok {
		n.hasConst, n.constV = true, c
	}
	return nil
}

// conditional compiles if/then/else (draft-07 on); then and else only
// beside an if.
func (f *filler) conditional() (err error) {
	n := f.n
	if f.dr < draft7 {
		return nil
	}
	if n.ifN, err = f.sub("if"); err != nil || n.ifN == nil {
		return err
	}
	if n.thenN, err = f.sub("then"); err != nil {
		return err
	}
	n.elseN, err = f.sub("else")
	return err
}

// draft2019 compiles the keywords 2019-09 added: the contains bounds,
// dependentSchemas, dependentRequired and the unevaluated keywords.
func (f *filler) draft2019() (err error) {
	if f.dr < draft2019 {
		return nil
	}
	n, obj := f.n, f.obj
	if n.contains != nil {
		n.minContains = countOf(obj["minContains"])
		n.maxContains = countOf(obj["maxContains"])
	}
	if m, ok := obj["dependentSchemas"].(map[string]any); ok {
		for _, k := range sortedKeys(m) {
			c, err := f.named("dependentSchemas", k)
			if err != nil {
				return err
			}
			n.deps = append(n.deps, dependency{kw: "dependentSchemas", prop: k, n: c})
		}
	}
	if m, ok := obj["dependentRequired"].(map[string]any); ok {
		for _, k := range sortedKeys(m) {
			if arr, ok := m[k].([]any); ok {
				n.deps = append(n.deps, dependency{kw: "dependentRequired", prop: k, names: stringsOf(arr)})
			}
		}
	}
	if n.unevalItems, err = f.sub("unevaluatedItems"); err != nil {
		return err
	}
	n.unevalProps, err = f.sub("unevaluatedProperties")
	return err
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
