package schema

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// The schema self-check: what each draft's metaschema says about keyword
// values (types, ranges, uniqueness, URI and regex formats), written as
// code. A schema failing it is refused at compile time naming the file and
// the JSON pointer of the offending value.

type draft int

const (
	draft4    draft = 4
	draft6    draft = 6
	draft7    draft = 7
	draft2019 draft = 2019
	draft2020 draft = 2020
)

func (d draft) String() string {
	switch d {
	case draft4, draft6, draft7:
		return fmt.Sprintf("draft-0%d", int(d))
	case draft2019:
		return "draft 2019-09"
	}
	return "draft 2020-12"
}

// idKeyword is the keyword naming a schema resource.
func (d draft) idKeyword() string {
	if d == draft4 {
		return "id"
	}
	return "$id"
}

// draftOfURL maps a $schema value to a draft; false when it names none of
// the standard metaschemas.
func draftOfURL(s string) (draft, bool) {
	// A fragment is ignored, as the library did: the document named is
	// the draft's metaschema.
	s, _, _ = strings.Cut(s, "#")
	rest, ok := strings.CutPrefix(s, "http://")
	if !ok {
		rest, ok = strings.CutPrefix(s, "https://")
	}
	if !ok {
		return 0, false
	}
	switch rest {
	case "json-schema.org/schema", "json-schema.org/draft/2020-12/schema":
		return draft2020, true
	case "json-schema.org/draft/2019-09/schema":
		return draft2019, true
	case "json-schema.org/draft-07/schema":
		return draft7, true
	case "json-schema.org/draft-06/schema":
		return draft6, true
	case "json-schema.org/draft-04/schema":
		return draft4, true
	}
	return 0, false
}

// metaDraftOfURL maps a reference into the built-in metaschemas (a draft's
// schema or one of its vocabulary metaschemas, no fragment) to its draft.
func metaDraftOfURL(s string) (draft, bool) {
	if d, ok := draftOfURL(s); ok {
		return d, true
	}
	s = strings.TrimSuffix(s, "#")
	rest, ok := strings.CutPrefix(s, "http://")
	if !ok {
		rest, ok = strings.CutPrefix(s, "https://")
	}
	if !ok {
		return 0, false
	}
	switch {
	case strings.HasPrefix(rest, "json-schema.org/draft/2020-12/meta/"):
		switch strings.TrimPrefix(rest, "json-schema.org/draft/2020-12/meta/") {
		case "core", "applicator", "unevaluated", "validation", "meta-data", "format-annotation", "format-assertion", "content":
			return draft2020, true
		}
	case strings.HasPrefix(rest, "json-schema.org/draft/2019-09/meta/"):
		switch strings.TrimPrefix(rest, "json-schema.org/draft/2019-09/meta/") {
		case "core", "applicator", "validation", "meta-data", "format", "content":
			return draft2019, true
		}
	}
	return 0, false
}

// schemaIssue is one self-check failure: where and what.
type schemaIssue struct {
	ptr string // JSON pointer of the offending value inside the document
	msg string
}

var (
	anchor2019 = regexp.MustCompile(`^[A-Za-z][-A-Za-z0-9.:_]*$`)
	anchor2020 = regexp.MustCompile(`^[A-Za-z_][-A-Za-z0-9._]*$`)
)

// metaCheck walks a schema document the way its draft's metaschema does
// and returns the first issue (keywords in sorted order), or nil.
func metaCheck(v any, ptr string, d draft) *schemaIssue {
	obj, isObj := v.(map[string]any)
	if !isObj {
		if _, isBool := v.(bool); isBool && d >= draft6 {
			return nil
		}
		want := "an object or a boolean"
		if d == draft4 {
			want = "an object (draft-04 has no boolean schemas)"
		}
		return &schemaIssue{ptr, fmt.Sprintf("a schema must be %s, got %s", want, describeJSON(v))}
	}
	// An embedded resource may name its own draft.
	if ptr != "" {
		d = embeddedDraft(obj, d)
	}
	for _, kw := range slices.Sorted(maps.Keys(obj)) {
		if is := checkKeyword(obj, kw, obj[kw], ptr+"/"+escapePointer(kw), d); is != nil {
			return is
		}
	}
	return nil
}

// embeddedDraft is the draft of a subschema: its own when it names a
// standard one in $schema and is a resource by that draft's id keyword
// ("id" for draft-04, else "$id"), the enclosing draft otherwise.
func embeddedDraft(obj map[string]any, enclosing draft) draft {
	s, ok := obj["$schema"].(string)
	if !ok {
		return enclosing
	}
	d, known := draftOfURL(s)
	if !known {
		return enclosing
	}
	if id, ok := obj[d.idKeyword()].(string); !ok || id == "" {
		return enclosing
	}
	return d
}

func describeJSON(v any) string {
	switch x := v.(type) {
	case string:
		return "string " + strconv.Quote(x)
	case nil:
		return "null"
	case bool:
		return "boolean " + strconv.FormatBool(x)
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	if typeOf(v) == tNumber {
		return "number " + fmt.Sprint(v)
	}
	return fmt.Sprintf("%T", v)
}

func issuef(ptr, kw, format string, args ...any) *schemaIssue {
	return &schemaIssue{ptr, fmt.Sprintf("%q ", strings.TrimSuffix(kw, "[]")) + fmt.Sprintf(format, args...)}
}

// checkKeyword checks one keyword's value (and the subschemas it holds).
func checkKeyword(obj map[string]any, kw string, v any, p string, d draft) *schemaIssue {
	schemaAt := func() *schemaIssue { return metaCheck(v, p, d) }
	schemaMap := func() *schemaIssue {
		m, ok := v.(map[string]any)
		if !ok {
			return issuef(p, kw, "must be an object mapping names to schemas, got %s", describeJSON(v))
		}
		for _, k := range slices.Sorted(maps.Keys(m)) {
			if is := metaCheck(m[k], p+"/"+escapePointer(k), d); is != nil {
				return is
			}
		}
		return nil
	}
	schemaList := func() *schemaIssue {
		arr, ok := v.([]any)
		if !ok || len(arr) == 0 {
			return issuef(p, kw, "must be a non-empty array of schemas, got %s", describeJSON(v))
		}
		for i, e := range arr {
			if is := metaCheck(e, p+"/"+strconv.Itoa(i), d); is != nil {
				return is
			}
		}
		return nil
	}
	str := func() *schemaIssue {
		if _, ok := v.(string); !ok {
			return issuef(p, kw, "must be a string, got %s", describeJSON(v))
		}
		return nil
	}
	boolean := func() *schemaIssue {
		if _, ok := v.(bool); !ok {
			return issuef(p, kw, "must be true or false, got %s", describeJSON(v))
		}
		return nil
	}
	number := func() *schemaIssue {
		if typeOf(v) != tNumber {
			return issuef(p, kw, "must be a number, got %s", describeJSON(v))
		}
		return nil
	}
	count := func() *schemaIssue {
		dec, ok := toDecimal(v)
		if typeOf(v) != tNumber || !ok || !dec.isInteger() || dec.neg && !dec.isZero() {
			return issuef(p, kw, "must be a non-negative integer, got %s", describeJSON(v))
		}
		return nil
	}
	uriRef := func() *schemaIssue {
		s, ok := v.(string)
		if !ok {
			return issuef(p, kw, "must be a string (a URI reference), got %s", describeJSON(v))
		}
		if err := checkURIReference(s); err != nil {
			return issuef(p, kw, "%q is not a valid URI reference: %v", s, err)
		}
		return nil
	}
	anchor := func() *schemaIssue {
		s, ok := v.(string)
		re := anchor2020
		if d == draft2019 {
			re = anchor2019
		}
		if !ok || !re.MatchString(s) {
			return issuef(p, kw, "must be a plain name matching %s, got %s", re, describeJSON(v))
		}
		return nil
	}
	stringArray := func(minOne bool) *schemaIssue {
		arr, ok := v.([]any)
		if !ok {
			return issuef(p, kw, "must be an array of strings, got %s", describeJSON(v))
		}
		if minOne && len(arr) == 0 {
			return issuef(p, kw, "must list at least one name in %s", d)
		}
		for i, e := range arr {
			if _, ok := e.(string); !ok {
				return issuef(p+"/"+strconv.Itoa(i), kw, "must hold only strings, got %s", describeJSON(e))
			}
		}
		if i, j := firstDuplicate(arr); i >= 0 {
			return issuef(p, kw, "lists %s twice (items %d and %d); names must be unique", displayValue(arr[i]), i, j)
		}
		return nil
	}

	switch kw {
	case "$schema":
		s, ok := v.(string)
		if !ok {
			return issuef(p, kw, "must be a string, got %s", describeJSON(v))
		}
		if err := checkURI(s); err != nil {
			return issuef(p, kw, "%q is not an absolute URI: %v", s, err)
		}
	case "id":
		if d == draft4 {
			return str()
		}
	case "$id":
		if d >= draft6 {
			if is := uriRef(); is != nil {
				return is
			}
			if s := v.(string); d >= draft2019 && strings.Contains(strings.TrimSuffix(s, "#"), "#") {
				return issuef(p, kw, "%q must not have a fragment; name a location with $anchor instead", s)
			}
		}
	case "$ref":
		if d == draft4 {
			return str()
		}
		return uriRef()
	case "$anchor":
		if d >= draft2019 {
			return anchor()
		}
	case "$dynamicRef":
		if d == draft2020 {
			return uriRef()
		}
	case "$dynamicAnchor":
		if d == draft2020 {
			return anchor()
		}
	case "$recursiveRef":
		if d >= draft2019 {
			return uriRef()
		}
	case "$recursiveAnchor":
		switch d {
		case draft2019:
			return boolean()
		case draft2020:
			return anchor()
		}
	case "$vocabulary":
		if d >= draft2019 {
			m, ok := v.(map[string]any)
			if !ok {
				return issuef(p, kw, "must be an object mapping vocabulary URIs to booleans, got %s", describeJSON(v))
			}
			for _, k := range slices.Sorted(maps.Keys(m)) {
				if err := checkURI(k); err != nil {
					return issuef(p, kw, "names %q, which is not an absolute URI", k)
				}
				if _, ok := m[k].(bool); !ok {
					return issuef(p+"/"+escapePointer(k), kw, "values must be true or false, got %s", describeJSON(m[k]))
				}
			}
		}
	case "$comment":
		if d >= draft7 {
			return str()
		}
	case "$defs":
		if d >= draft2019 {
			return schemaMap()
		}
	case "definitions", "properties":
		return schemaMap()
	case "patternProperties":
		if is := schemaMap(); is != nil {
			return is
		}
		for _, k := range slices.Sorted(maps.Keys(v.(map[string]any))) {
			if _, err := regexp.Compile(k); err != nil {
				return &schemaIssue{p + "/" + escapePointer(k), fmt.Sprintf("invalid regular expression %q in patternProperties: %v", k, err)}
			}
		}
	case "dependentSchemas":
		if d >= draft2019 {
			return schemaMap()
		}
	case "title", "description", "format":
		return str()
	case "contentMediaType", "contentEncoding":
		if d >= draft7 {
			return str()
		}
	case "readOnly", "writeOnly":
		if d >= draft7 {
			return boolean()
		}
	case "deprecated":
		if d >= draft2019 {
			return boolean()
		}
	case "examples":
		if d >= draft7 {
			if _, ok := v.([]any); !ok {
				return issuef(p, kw, "must be an array, got %s", describeJSON(v))
			}
		}
	case "multipleOf":
		if is := number(); is != nil {
			return is
		}
		if dec, _ := toDecimal(v); dec.isZero() || dec.neg {
			return issuef(p, kw, "must be greater than 0, got %s", fmt.Sprint(v))
		}
	case "maximum", "minimum":
		return number()
	case "exclusiveMaximum", "exclusiveMinimum":
		if d == draft4 {
			if is := boolean(); is != nil {
				return is
			}
			base := strings.ToLower(strings.TrimPrefix(kw, "exclusive"))
			if _, ok := obj[base]; !ok {
				return issuef(p, kw, "needs %q beside it in draft-04", base)
			}
			return nil
		}
		return number()
	case "maxLength", "minLength", "maxItems", "minItems", "maxProperties", "minProperties":
		return count()
	case "maxContains", "minContains":
		if d >= draft2019 {
			return count()
		}
	case "pattern":
		s, ok := v.(string)
		if !ok {
			return issuef(p, kw, "must be a string, got %s", describeJSON(v))
		}
		if _, err := regexp.Compile(s); err != nil {
			return &schemaIssue{p, fmt.Sprintf("invalid regular expression %q: %v; patterns use Go's RE2 syntax (no lookaround or backreferences)", s, err)}
		}
	case "additionalItems":
		if d <= draft2019 {
			if _, ok := v.(bool); ok && d == draft4 {
				return nil
			}
			return schemaAt()
		}
	case "additionalProperties":
		if _, ok := v.(bool); ok && d == draft4 {
			return nil
		}
		return schemaAt()
	case "items":
		if _, ok := v.([]any); ok && d <= draft2019 {
			return schemaList()
		}
		return schemaAt()
	case "prefixItems":
		if d == draft2020 {
			return schemaList()
		}
	case "contains", "propertyNames":
		if d >= draft6 {
			return schemaAt()
		}
	case "if", "then", "else":
		if d >= draft7 {
			return schemaAt()
		}
	case "not":
		return schemaAt()
	case "unevaluatedItems", "unevaluatedProperties", "contentSchema":
		if d >= draft2019 {
			return schemaAt()
		}
	case "allOf", "anyOf", "oneOf":
		return schemaList()
	case "uniqueItems":
		return boolean()
	case "required":
		return stringArray(d == draft4)
	case "dependentRequired":
		if d >= draft2019 {
			m, ok := v.(map[string]any)
			if !ok {
				return issuef(p, kw, "must be an object mapping names to arrays of names, got %s", describeJSON(v))
			}
			for _, k := range slices.Sorted(maps.Keys(m)) {
				if is := checkKeyword(nil, "dependentRequired[]", m[k], p+"/"+escapePointer(k), d); is != nil {
					return is
				}
			}
		}
	case "dependentRequired[]", "dependencies[]":
		return stringArray(d == draft4)
	case "dependencies":
		m, ok := v.(map[string]any)
		if !ok {
			return issuef(p, kw, "must be an object, got %s", describeJSON(v))
		}
		for _, k := range slices.Sorted(maps.Keys(m)) {
			e, ep := m[k], p+"/"+escapePointer(k)
			if _, isArr := e.([]any); isArr {
				if is := checkKeyword(nil, "dependencies[]", e, ep, d); is != nil {
					return is
				}
				continue
			}
			if is := metaCheck(e, ep, d); is != nil {
				return &schemaIssue{ep, fmt.Sprintf("%q values must be schemas or arrays of names: %s", kw, is.msg)}
			}
		}
	case "enum":
		arr, ok := v.([]any)
		if !ok {
			return issuef(p, kw, "must be an array, got %s", describeJSON(v))
		}
		if d <= draft7 {
			if len(arr) == 0 {
				return issuef(p, kw, "must list at least one value in %s", d)
			}
			if i, j := firstDuplicate(arr); i >= 0 {
				return issuef(p, kw, "lists the same value twice (items %d and %d) in %s", i, j, d)
			}
		}
	case "type":
		return checkType(v, p)
	}
	return nil
}

func checkType(v any, p string) *schemaIssue {
	const names = `"array", "boolean", "integer", "null", "number", "object" or "string"`
	switch x := v.(type) {
	case string:
		if typeNamed(x) == 0 {
			return issuef(p, "type", "must be one of %s, got %q", names, x)
		}
		return nil
	case []any:
		if len(x) == 0 {
			return issuef(p, "type", "must list at least one type")
		}
		for i, e := range x {
			s, ok := e.(string)
			if !ok || typeNamed(s) == 0 {
				return issuef(p+"/"+strconv.Itoa(i), "type", "entries must be one of %s, got %s", names, describeJSON(e))
			}
		}
		if i, j := firstDuplicate(x); i >= 0 {
			return issuef(p, "type", "lists %s twice (items %d and %d)", displayValue(x[i]), i, j)
		}
		return nil
	}
	return issuef(p, "type", "must be a type name (%s) or an array of them, got %s", names, describeJSON(v))
}
