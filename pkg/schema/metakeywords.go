package schema

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// The self-check of one keyword value: checkKeyword dispatches by keyword
// group (identifiers and references, anchors and vocabularies, annotations,
// numeric, string, array and object validation, subschema maps,
// applicators, enum and type) to a checker of that group; the value shapes
// they share (a string, a count, a URI reference, a list of names, a
// subschema...) are methods of kwValue.

// kwValue is one keyword value under self-check: the schema object holding
// it (nil for the entries of "dependencies"/"dependentRequired"), the
// keyword, its value, its JSON pointer and the draft in force.
type kwValue struct {
	obj map[string]any
	kw  string
	v   any
	d   draft
	// p is the keyword's JSON pointer; when pSet is false it is parent +
	// "/" + the escaped keyword, put together only when a message or a
	// subschema needs it (most keywords check clean and need neither).
	p, parent string
	pSet      bool
}

// ptr is the keyword's JSON pointer.
func (k *kwValue) ptr() string {
	if !k.pSet {
		k.p, k.pSet = k.parent+"/"+escapePointer(k.kw), true
	}
	return k.p
}

// checkKeyword checks one keyword's value (and the subschemas it holds).
func checkKeyword(obj map[string]any, kw string, v any, p string, d draft) *schemaIssue {
	return checkKeywordOf(&kwValue{obj: obj, kw: kw, v: v, p: p, pSet: true, d: d})
}

// checkKeywordIn is checkKeyword for the keyword kw of the schema object
// obj at the pointer parent.
func checkKeywordIn(obj map[string]any, kw string, parent string, d draft) *schemaIssue {
	return checkKeywordOf(&kwValue{obj: obj, kw: kw, v: obj[kw], parent: parent, d: d})
}

func checkKeywordOf(k *kwValue) *schemaIssue {
	v := k.v
	switch k.kw {
	case "$schema", "id", "$id", "$ref", "$dynamicRef", "$recursiveRef":
		return k.checkIdentifier()
	case "$anchor", "$dynamicAnchor", "$recursiveAnchor", "$vocabulary", "$comment":
		return k.checkCore()
	case "title", "description", "format", "contentMediaType", "contentEncoding",
		"readOnly", "writeOnly", "deprecated", "examples":
		return k.checkAnnotation()
	case "multipleOf", "maximum", "minimum", "exclusiveMaximum", "exclusiveMinimum":
		return k.checkNumeric()
	case "maxLength", "minLength", "pattern":
		return k.checkString()
	case "maxItems", "minItems", "maxContains", "minContains", "uniqueItems":
		return k.checkArray()
	case "maxProperties", "minProperties", "required", "dependentRequired",
		"dependentRequired[]", "dependencies[]", "dependencies":
		return k.checkObject()
	case "$defs", "definitions", "properties", "patternProperties", "dependentSchemas":
		return k.checkSchemaMap()
	case "additionalItems", "additionalProperties", "items", "prefixItems",
		"contains", "propertyNames", "if", "then", "else", "not",
		"unevaluatedItems", "unevaluatedProperties", "contentSchema",
		"allOf", "anyOf", "oneOf":
		return k.checkApplicator()
	case "enum":
		return k.checkEnum()
	case "type":
		return checkType(v, k)
	}
	return nil
}

// checkIdentifier checks $schema, the id keywords and the reference keywords.
func (k *kwValue) checkIdentifier() *schemaIssue {
	switch k.kw {
	case "$schema":
		s, ok := k.v.(string)
		if !ok {
			return k.issue("must be a string, got %s", describeJSON(k.v))
		}
		if err := checkURI(s); err != nil {
			return k.issue("%q is not an absolute URI: %v", s, err)
		}
	case "id":
		if k.d == draft4 {
			return k.str()
		}
	case "$id":
		if k.d >= draft6 {
			return k.id()
		}
	case "$ref":
		if k.d == draft4 {
			return k.str()
		}
		return k.uriRef()
	case "$dynamicRef":
		if k.d == draft2020 {
			return k.uriRef()
		}
	case "$recursiveRef":
		if k.d >= draft2019 {
			return k.uriRef()
		}
	}
	return nil
}

// id checks a "$id" (draft 6 and later): a URI reference, with no fragment
// from 2019-09 on.
func (k *kwValue) id() *schemaIssue {
	if is := k.uriRef(); is != nil {
		return is
	}
	if s := k.v.(string); k.d >= draft2019 && strings.Contains(strings.TrimSuffix(s, "#"), "#") {
		return k.issue("%q must not have a fragment; name a location with $anchor instead", s)
	}
	return nil
}

// checkCore checks the anchor keywords, $vocabulary and $comment.
func (k *kwValue) checkCore() *schemaIssue {
	switch k.kw {
	case "$anchor":
		if k.d >= draft2019 {
			return k.anchor()
		}
	case "$dynamicAnchor":
		if k.d == draft2020 {
			return k.anchor()
		}
	case "$recursiveAnchor":
		switch k.d {
		case draft2019:
			return k.boolean()
		case draft2020:
			return k.anchor()
		}
	case "$vocabulary":
		if k.d >= draft2019 {
			return k.vocabulary()
		}
	case "$comment":
		if k.d >= draft7 {
			return k.str()
		}
	}
	return nil
}

// vocabulary checks a "$vocabulary" object: absolute URIs to booleans.
func (k *kwValue) vocabulary() *schemaIssue {
	m, ok := k.v.(map[string]any)
	if !ok {
		return k.issue("must be an object mapping vocabulary URIs to booleans, got %s", describeJSON(k.v))
	}
	for _, name := range sortedKeys(m) {
		if err := checkURI(name); err != nil {
			return k.issue("names %q, which is not an absolute URI", name)
		}
		if _, ok := m[name].(bool); !ok {
			return issuef(k.ptr()+"/"+escapePointer(name), k.kw, "values must be true or false, got %s", describeJSON(m[name]))
		}
	}
	return nil
}

// checkAnnotation checks the annotation keywords (and "format", whose
// value is a name whichever draft asserts it).
func (k *kwValue) checkAnnotation() *schemaIssue {
	switch k.kw {
	case "title", "description", "format":
		return k.str()
	case "contentMediaType", "contentEncoding":
		if k.d >= draft7 {
			return k.str()
		}
	case "readOnly", "writeOnly":
		if k.d >= draft7 {
			return k.boolean()
		}
	case "deprecated":
		if k.d >= draft2019 {
			return k.boolean()
		}
	case "examples":
		if _, ok := k.v.([]any); !ok && k.d >= draft7 {
			return k.issue("must be an array, got %s", describeJSON(k.v))
		}
	}
	return nil
}

// checkNumeric checks multipleOf and the bounds.
func (k *kwValue) checkNumeric() *schemaIssue {
	switch k.kw {
	case "multipleOf":
		if is := k.number(); is != nil {
			return is
		}
		if dec, _ := toDecimal(k.v); dec.isZero() || dec.neg {
			return k.issue("must be greater than 0, got %s", fmt.Sprint(k.v))
		}
	case "maximum", "minimum":
		return k.number()
	case "exclusiveMaximum", "exclusiveMinimum":
		if k.d == draft4 {
			return k.draft4Exclusive()
		}
		return k.number()
	}
	return nil
}

// draft4Exclusive checks a draft-04 exclusiveMaximum/exclusiveMinimum: a
// boolean beside the bound it qualifies.
func (k *kwValue) draft4Exclusive() *schemaIssue {
	if is := k.boolean(); is != nil {
		return is
	}
	base := strings.ToLower(strings.TrimPrefix(k.kw, "exclusive"))
	if _, ok := k.obj[base]; !ok {
		return k.issue("needs %q beside it in draft-04", base)
	}
	return nil
}

// checkString checks the string length bounds and pattern.
func (k *kwValue) checkString() *schemaIssue {
	switch k.kw {
	case "maxLength", "minLength":
		return k.count()
	case "pattern":
		s, ok := k.v.(string)
		if !ok {
			return k.issue("must be a string, got %s", describeJSON(k.v))
		}
		if _, err := regexp.Compile(s); err != nil {
			return &schemaIssue{k.ptr(), fmt.Sprintf("invalid regular expression %q: %v; patterns use Go's RE2 syntax (no lookaround or backreferences)", s, err)}
		}
	}
	return nil
}

// checkArray checks the array size bounds, the contains bounds and
// uniqueItems.
func (k *kwValue) checkArray() *schemaIssue {
	switch k.kw {
	case "maxItems", "minItems":
		return k.count()
	case "maxContains", "minContains":
		if k.d >= draft2019 {
			return k.count()
		}
	case "uniqueItems":
		return k.boolean()
	}
	return nil
}

// checkObject checks the property-count bounds, required and the
// dependency keywords.
func (k *kwValue) checkObject() *schemaIssue {
	switch k.kw {
	case "maxProperties", "minProperties":
		return k.count()
	case "required", "dependentRequired[]", "dependencies[]":
		return k.stringArray(k.d == draft4)
	case "dependentRequired":
		if k.d >= draft2019 {
			return k.dependentRequired()
		}
	case "dependencies":
		return k.dependencies()
	}
	return nil
}

// dependentRequired checks a "dependentRequired" object: names to lists of
// names.
func (k *kwValue) dependentRequired() *schemaIssue {
	m, ok := k.v.(map[string]any)
	if !ok {
		return k.issue("must be an object mapping names to arrays of names, got %s", describeJSON(k.v))
	}
	for _, name := range sortedKeys(m) {
		if is := checkKeyword(nil, "dependentRequired[]", m[name], k.ptr()+"/"+escapePointer(name), k.d); is != nil {
			return is
		}
	}
	return nil
}

// dependencies checks a "dependencies" object: names to schemas or to
// lists of names.
func (k *kwValue) dependencies() *schemaIssue {
	m, ok := k.v.(map[string]any)
	if !ok {
		return k.issue("must be an object, got %s", describeJSON(k.v))
	}
	for _, name := range sortedKeys(m) {
		e, ep := m[name], k.ptr()+"/"+escapePointer(name)
		if _, isArr := e.([]any); isArr {
			if is := checkKeyword(nil, "dependencies[]", e, ep, k.d); is != nil {
				return is
			}
			continue
		}
		if is := metaCheck(e, ep, k.d); is != nil {
			return &schemaIssue{ep, fmt.Sprintf("%q values must be schemas or arrays of names: %s", k.kw, is.msg)}
		}
	}
	return nil
}

// checkSchemaMap checks the keywords mapping names (or patterns) to
// subschemas.
func (k *kwValue) checkSchemaMap() *schemaIssue {
	switch k.kw {
	case "$defs", "dependentSchemas":
		if k.d >= draft2019 {
			return k.schemaMap()
		}
	case "definitions", "properties":
		return k.schemaMap()
	case "patternProperties":
		if is := k.schemaMap(); is != nil {
			return is
		}
		for _, re := range sortedKeys(k.v.(map[string]any)) {
			if _, err := regexp.Compile(re); err != nil {
				return &schemaIssue{k.ptr() + "/" + escapePointer(re), fmt.Sprintf("invalid regular expression %q in patternProperties: %v", re, err)}
			}
		}
	}
	return nil
}

// checkApplicator checks the keywords holding one subschema or a list of
// them.
func (k *kwValue) checkApplicator() *schemaIssue {
	switch k.kw {
	case "additionalItems":
		if k.d <= draft2019 {
			return k.schemaOrDraft4Bool()
		}
	case "additionalProperties":
		return k.schemaOrDraft4Bool()
	case "items":
		if _, ok := k.v.([]any); ok && k.d <= draft2019 {
			return k.schemaList()
		}
		return k.schemaAt()
	case "prefixItems":
		if k.d == draft2020 {
			return k.schemaList()
		}
	case "contains", "propertyNames":
		if k.d >= draft6 {
			return k.schemaAt()
		}
	case "if", "then", "else":
		if k.d >= draft7 {
			return k.schemaAt()
		}
	case "not":
		return k.schemaAt()
	case "unevaluatedItems", "unevaluatedProperties", "contentSchema":
		if k.d >= draft2019 {
			return k.schemaAt()
		}
	case "allOf", "anyOf", "oneOf":
		return k.schemaList()
	}
	return nil
}

// schemaOrDraft4Bool checks additionalItems/additionalProperties: a schema,
// or in draft-04 (which has no boolean schemas) also a boolean.
func (k *kwValue) schemaOrDraft4Bool() *schemaIssue {
	if _, ok := k.v.(bool); ok && k.d == draft4 {
		return nil
	}
	return k.schemaAt()
}

// checkEnum checks an "enum": an array, non-empty and without repeats up
// to draft-07.
func (k *kwValue) checkEnum() *schemaIssue {
	arr, ok := k.v.([]any)
	if !ok {
		return k.issue("must be an array, got %s", describeJSON(k.v))
	}
	if k.d > draft7 {
		return nil
	}
	if len(arr) == 0 {
		return k.issue("must list at least one value in %s", k.d)
	}
	if i, j := firstDuplicate(arr); i >= 0 {
		return k.issue("lists the same value twice (items %d and %d) in %s", i, j, k.d)
	}
	return nil
}

// issue is an issue at the keyword value itself.
func (k *kwValue) issue(format string, args ...any) *schemaIssue {
	return issuef(k.ptr(), k.kw, format, args...)
}

func (k *kwValue) schemaAt() *schemaIssue { return metaCheck(k.v, k.ptr(), k.d) }

func (k *kwValue) schemaMap() *schemaIssue {
	m, ok := k.v.(map[string]any)
	if !ok {
		return k.issue("must be an object mapping names to schemas, got %s", describeJSON(k.v))
	}
	for _, name := range sortedKeys(m) {
		if is := metaCheck(m[name], k.ptr()+"/"+escapePointer(name), k.d); is != nil {
			return is
		}
	}
	return nil
}

func (k *kwValue) schemaList() *schemaIssue {
	arr, ok := k.v.([]any)
	if !ok || len(arr) == 0 {
		return k.issue("must be a non-empty array of schemas, got %s", describeJSON(k.v))
	}
	for i, e := range arr {
		if is := metaCheck(e, k.ptr()+"/"+strconv.Itoa(i), k.d); is != nil {
			return is
		}
	}
	return nil
}

func (k *kwValue) str() *schemaIssue {
	if _, ok := k.v.(string); !ok {
		return k.issue("must be a string, got %s", describeJSON(k.v))
	}
	return nil
}

func (k *kwValue) boolean() *schemaIssue {
	if _, ok := k.v.(bool); !ok {
		return k.issue("must be true or false, got %s", describeJSON(k.v))
	}
	return nil
}

func (k *kwValue) number() *schemaIssue {
	if typeOf(k.v) != tNumber {
		return k.issue("must be a number, got %s", describeJSON(k.v))
	}
	return nil
}

func (k *kwValue) count() *schemaIssue {
	dec, ok := toDecimal(k.v)
	if typeOf(k.v) != tNumber || !ok || !dec.isInteger() || dec.neg && !dec.isZero() {
		return k.issue("must be a non-negative integer, got %s", describeJSON(k.v))
	}
	return nil
}

func (k *kwValue) uriRef() *schemaIssue {
	s, ok := k.v.(string)
	if !ok {
		return k.issue("must be a string (a URI reference), got %s", describeJSON(k.v))
	}
	if err := checkURIReference(s); err != nil {
		return k.issue("%q is not a valid URI reference: %v", s, err)
	}
	return nil
}

func (k *kwValue) anchor() *schemaIssue {
	s, ok := k.v.(string)
	re := anchor2020
	if k.d == draft2019 {
		re = anchor2019
	}
	if !ok || !re.MatchString(s) {
		return k.issue("must be a plain name matching %s, got %s", re, describeJSON(k.v))
	}
	return nil
}

// stringArray checks a list of unique names (at least one when minOne).
func (k *kwValue) stringArray(minOne bool) *schemaIssue {
	arr, ok := k.v.([]any)
	if !ok {
		return k.issue("must be an array of strings, got %s", describeJSON(k.v))
	}
	if minOne && len(arr) == 0 {
		return k.issue("must list at least one name in %s", k.d)
	}
	for i, e := range arr {
		if _, ok := e.(string); !ok {
			return issuef(k.ptr()+"/"+strconv.Itoa(i), k.kw, "must hold only strings, got %s", describeJSON(e))
		}
	}
	if i, j := firstDuplicate(arr); i >= 0 {
		return k.issue("lists %s twice (items %d and %d); names must be unique", displayValue(arr[i]), i, j)
	}
	return nil
}
