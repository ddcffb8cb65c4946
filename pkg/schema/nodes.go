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
