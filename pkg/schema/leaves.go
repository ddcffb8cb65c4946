package schema

import (
	"cmp"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// The library's error tree flattened into kitsoki's ValidationError: its
// leaves, in an order that does not depend on Go's map order (by place in
// the instance, then in the schema, then by text).

var english = message.NewPrinter(language.English)

type leaf struct {
	inst   []string // instance location tokens
	doc    string   // schema document URL
	schema []string // schema location tokens (unescaped)
	prop   string   // the property name a propertyNames failure is about
	v      ValidationError
}

// fromLibrary flattens the library's error tree into a ValidationError;
// name maps a library URL to the file and pointer it stands for.
func fromLibrary(ve *jsonschema.ValidationError, name func(string) string) *ValidationError {
	leaves := flatten(ve, name)
	out := leaves[0].v
	for _, l := range leaves[1:] {
		out.More = append(out.More, l.v)
	}
	return &out
}

// flatten lists the leaves of the error tree in kitsoki's order.
func flatten(ve *jsonschema.ValidationError, name func(string) string) []leaf {
	var leaves []leaf
	collectLeaves(ve, name, &leaves)
	slices.SortStableFunc(leaves, compareLeaves)
	return leaves
}

// collectLeaves appends the leaves below e. A propertyNames failure is
// one leaf at the object, naming the property, with what the name broke
// in parentheses (the library's own leaves there have no place).
func collectLeaves(e *jsonschema.ValidationError, name func(string) string, out *[]leaf) {
	pn, isPN := e.ErrorKind.(*kind.PropertyNames)
	if len(e.Causes) > 0 && !isPN {
		for _, c := range e.Causes {
			collectLeaves(c, name, out)
		}
		return
	}
	doc, frag, _ := strings.Cut(e.SchemaURL, "#")
	// The library places a leaf at the schema holding the keyword; the
	// keyword itself orders leaves of one schema.
	at := append(pointerTokens(unescapeFragment(frag)), e.ErrorKind.KeywordPath()...)
	l := leaf{inst: e.InstanceLocation, doc: doc, schema: at, v: leafOf(e.ErrorKind, e.InstanceLocation, name)}
	if isPN {
		l.prop = pn.Property
		var inner []string
		for _, c := range e.Causes {
			for _, cl := range flatten(c, name) {
				inner = append(inner, cl.v.Constraint+": "+cl.v.Message)
			}
		}
		if len(inner) > 0 {
			l.v.Message += " (" + strings.Join(inner, "; ") + ")"
		}
	}
	*out = append(*out, l)
}

func leafOf(k jsonschema.ErrorKind, inst []string, name func(string) string) ValidationError {
	switch x := k.(type) {
	case *kind.AdditionalProperties:
		k = &kind.AdditionalProperties{Properties: slices.Sorted(slices.Values(x.Properties))}
	case *kind.RefCycle:
		k = &kind.RefCycle{URL: name(x.URL), KeywordLocation1: x.KeywordLocation1, KeywordLocation2: x.KeywordLocation2}
	}
	c := constraintOf(k)
	// Some library messages already start with the keyword
	// ("maximum: got 5, want 1"); keep it once.
	words := k.LocalizedString(english)
	msg, keyed := strings.CutPrefix(words, c+": ")
	if p, ok := k.(*kind.Pattern); ok {
		if err := patternCost(p.Want, p.Got); err != nil {
			msg = fmt.Sprintf("a string of %d bytes was not matched against pattern %q: %v", len(p.Got), p.Want, err)
		}
	}
	return ValidationError{Pointer: jsonPointer(inst), Constraint: c, Message: msg, keyed: keyed}
}

func constraintOf(k jsonschema.ErrorKind) string {
	switch k.(type) {
	case *kind.Not:
		return "not"
	case *kind.FalseSchema:
		return "false"
	case *kind.RefCycle:
		return "$ref"
	case *kind.InvalidJsonValue:
		return "json"
	case *kind.Schema, *kind.Group:
		return "schema"
	}
	if p := k.KeywordPath(); len(p) > 0 {
		return p[0]
	}
	return "schema"
}

func compareLeaves(a, b leaf) int {
	return cmp.Or(slices.CompareFunc(a.inst, b.inst, compareToken(nil)),
		strings.Compare(a.doc, b.doc),
		slices.CompareFunc(a.schema, b.schema, compareToken(keywordRank)),
		strings.Compare(a.v.Constraint+": "+a.v.Message, b.v.Constraint+": "+b.v.Message))
}

// compareToken orders location tokens: keywords named in rank by it,
// then array indexes by number, then any other name as a string.
func compareToken(rank []string) func(a, b string) int {
	key := func(t string) (int, int) {
		if r := slices.Index(rank, t); r >= 0 {
			return 0, r
		}
		if n, err := strconv.Atoi(t); err == nil && n >= 0 {
			return 1, n
		}
		return 2, 0
	}
	return func(a, b string) int {
		ca, na := key(a)
		cb, nb := key(b)
		return cmp.Or(cmp.Compare(ca, cb), cmp.Compare(na, nb), strings.Compare(a, b))
	}
}

// keywordRank is the order in which the library checks an instance
// against one schema.
var keywordRank = []string{
	"type", "const", "enum", "format", "$ref",
	"minProperties", "maxProperties", "required", "dependencies", "properties",
	"patternProperties", "additionalProperties", "propertyNames", "dependentSchemas", "dependentRequired",
	"minItems", "maxItems", "uniqueItems", "items", "additionalItems", "prefixItems",
	"contains", "minContains", "maxContains",
	"minLength", "maxLength", "pattern", "contentEncoding", "contentMediaType", "contentSchema",
	"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
	"$recursiveRef", "$dynamicRef", "not", "allOf", "anyOf", "oneOf", "if", "then", "else",
	"unevaluatedProperties", "unevaluatedItems",
}

// pointerTokens splits a JSON pointer into unescaped tokens.
func pointerTokens(ptr string) []string {
	if ptr == "" {
		return nil
	}
	toks := strings.Split(strings.TrimPrefix(ptr, "/"), "/")
	for i, t := range toks {
		toks[i] = strings.ReplaceAll(strings.ReplaceAll(t, "~1", "/"), "~0", "~")
	}
	return toks
}

// unescapeFragment undoes the URL escaping of a fragment.
func unescapeFragment(f string) string {
	if s, err := url.PathUnescape(f); err == nil {
		return s
	}
	return f
}
