package schema

import (
	"fmt"
	"maps"
	"slices"
)

// GrammarViolation is one construct outside llama.cpp's json-schema-to-grammar
// subset (story-format.md §7.3).
type GrammarViolation struct {
	// Pointer locates the offending node in "$.properties.x" form; "$" is the root.
	Pointer string
	// Construct is the keyword at fault ("$ref", "anyOf", "pattern", "items",
	// "properties", "patternProperties"), "schema" for a non-object root and
	// "json" for unparsable input.
	Construct string
	// Detail is the message after "<Pointer>: ".
	Detail string
}

// String renders the violation the way the reference engine's detail does:
// `$.properties.x: "anyOf" alongside sibling properties/type is outside the
// llama.cpp grammar subset`, or `schema is not a JSON object` for the root.
func (v GrammarViolation) String() string {
	if v.Construct == "schema" || v.Construct == "json" {
		return v.Detail
	}
	return v.Pointer + ": " + v.Detail
}

// grammarUnsupported lists the keywords llama.cpp's converter omits, in the
// order the reference checks them.
var grammarUnsupported = []string{
	"$ref", "$defs", "definitions", "uniqueItems", "not",
	"if", "then", "else", "dependentSchemas", "contains",
}

const outsideSubset = "is outside the llama.cpp grammar subset"

// CheckGrammarSubset applies the llama.cpp grammar-subset rule of
// story-format.md §7.3 to a schema document and returns every violation
// (nil when the schema is inside the subset). Property and pattern-property
// names are walked sorted, so the result is deterministic.
func CheckGrammarSubset(raw []byte) []GrammarViolation {
	doc, perr := decodeJSON(raw)
	if perr != nil {
		return []GrammarViolation{{Pointer: "$", Construct: "json", Detail: "schema is not valid JSON: " + perr.Message}}
	}
	obj, ok := doc.(map[string]any)
	if !ok {
		return []GrammarViolation{{Pointer: "$", Construct: "schema", Detail: "schema is not a JSON object"}}
	}
	var out []GrammarViolation
	grammarNode(obj, "$", &out)
	return out
}

func grammarNode(obj map[string]any, p string, out *[]GrammarViolation) {
	add := func(ptr, construct, detail string) {
		*out = append(*out, GrammarViolation{Pointer: ptr, Construct: construct, Detail: detail})
	}
	for _, kw := range grammarUnsupported {
		if _, ok := obj[kw]; ok {
			add(p, kw, fmt.Sprintf("unsupported construct %q %s", kw, outsideSubset))
		}
	}
	_, hasProps := obj["properties"]
	_, hasType := obj["type"]
	for _, kw := range []string{"anyOf", "oneOf"} {
		v, ok := obj[kw]
		if !ok {
			continue
		}
		if hasProps || hasType {
			add(p, kw, fmt.Sprintf("%q alongside sibling properties/type %s", kw, outsideSubset))
		}
		arr, ok := v.([]any)
		if !ok {
			add(p+"."+kw, kw, "not a list of schemas")
			continue
		}
		for i, b := range arr {
			bp := fmt.Sprintf("%s.%s[%d]", p, kw, i)
			bo, ok := b.(map[string]any)
			if !ok {
				add(bp, kw, "not a JSON object schema")
				continue
			}
			grammarNode(bo, bp, out)
		}
	}
	if v, ok := obj["pattern"]; ok {
		s, ok := v.(string)
		switch {
		case !ok:
			add(p+".pattern", "pattern", "not a string")
		case len(s) < 2 || s[0] != '^' || s[len(s)-1] != '$':
			add(p+".pattern", "pattern", fmt.Sprintf("%q is not anchored (^...$); unanchored patterns translate to an overly permissive grammar", s))
		}
	}
	grammarSchemaMap(obj, "properties", p, out)
	if v, ok := obj["items"]; ok {
		if io, ok := v.(map[string]any); ok {
			grammarNode(io, p+".items", out)
		} else {
			add(p+".items", "items", "tuple-form or non-object items "+outsideSubset)
		}
	}
	if ap, ok := obj["additionalProperties"].(map[string]any); ok {
		grammarNode(ap, p+".additionalProperties", out)
	}
	grammarSchemaMap(obj, "patternProperties", p, out)
}

// grammarSchemaMap checks a name -> schema map keyword and recurses.
func grammarSchemaMap(obj map[string]any, kw, p string, out *[]GrammarViolation) {
	v, ok := obj[kw]
	if !ok {
		return
	}
	m, ok := v.(map[string]any)
	if !ok {
		*out = append(*out, GrammarViolation{Pointer: p + "." + kw, Construct: kw, Detail: "not a JSON object"})
		return
	}
	for _, name := range slices.Sorted(maps.Keys(m)) {
		np := p + "." + kw + "." + name
		so, ok := m[name].(map[string]any)
		if !ok {
			*out = append(*out, GrammarViolation{Pointer: np, Construct: kw, Detail: "not a JSON object schema"})
			continue
		}
		grammarNode(so, np, out)
	}
}
