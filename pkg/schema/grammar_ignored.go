package schema

import (
	"fmt"
	"maps"
	"slices"
)

// GrammarIgnored is one keyword inside llama.cpp's json-schema-to-grammar
// subset that the converter accepts but does not turn into a constraint, so
// the model can answer what the schema forbids (or never what it allows).
type GrammarIgnored struct {
	// At locates the key the finding is about in "$.properties.x.minimum"
	// form: the keyword itself, or "properties" for an omitted
	// additionalProperties.
	At string
	// Keyword is the keyword at fault ("minimum", "additionalProperties", "format", ...).
	Keyword string
	// Detail says what llama.cpp does with it, after "<At>: ".
	Detail string
}

func (g GrammarIgnored) String() string { return g.At + ": " + g.Detail }

// numberBounds are the range keywords llama.cpp constrains only on "integer".
var numberBounds = []string{"minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum"}

// grammarFormats are the format values the reference names as not
// constrained by the grammar.
var grammarFormats = []string{"uri", "email"}

// CheckGrammarIgnored lists the keywords of a schema inside the llama.cpp
// grammar subset that the grammar silently does not enforce (reference
// anchors §7): range bounds on a number and the uri and email formats.
// An omitted additionalProperties, which the grammar reads as false, is not
// listed: the answer still meets the schema, so there is nothing to fix. Unparsable input gives nil: CheckGrammarSubset
// reports it. Names are walked sorted, so the result is deterministic.
func CheckGrammarIgnored(raw []byte) []GrammarIgnored {
	doc, perr := decodeJSON(raw)
	if perr != nil {
		return nil
	}
	obj, ok := doc.(map[string]any)
	if !ok {
		return nil
	}
	var out []GrammarIgnored
	ignoredNode(obj, "$", &out)
	return out
}

func ignoredNode(obj map[string]any, p string, out *[]GrammarIgnored) {
	add := func(at, kw, detail string) {
		*out = append(*out, GrammarIgnored{At: at, Keyword: kw, Detail: detail})
	}
	if isNumberType(obj["type"]) {
		for _, kw := range numberBounds {
			if _, ok := obj[kw]; ok {
				add(p+"."+kw, kw, fmt.Sprintf("%q on a \"number\" is not constrained by the llama.cpp grammar (it bounds only \"integer\"): the model may answer any number", kw))
			}
		}
	}
	if f, ok := obj["format"].(string); ok && slices.Contains(grammarFormats, f) {
		add(p+".format", "format", fmt.Sprintf("\"format\": %q is not constrained by the llama.cpp grammar: the model may answer any string", f))
	}
	for _, kw := range []string{"anyOf", "oneOf"} {
		arr, _ := obj[kw].([]any)
		for i, b := range arr {
			if bo, ok := b.(map[string]any); ok {
				ignoredNode(bo, fmt.Sprintf("%s.%s[%d]", p, kw, i), out)
			}
		}
	}
	for _, kw := range []string{"properties", "patternProperties"} {
		m, _ := obj[kw].(map[string]any)
		for _, name := range slices.Sorted(maps.Keys(m)) {
			if so, ok := m[name].(map[string]any); ok {
				ignoredNode(so, p+"."+kw+"."+name, out)
			}
		}
	}
	if io, ok := obj["items"].(map[string]any); ok {
		ignoredNode(io, p+".items", out)
	}
	if ap, ok := obj["additionalProperties"].(map[string]any); ok {
		ignoredNode(ap, p+".additionalProperties", out)
	}
}

// isNumberType reports whether a "type" value is "number" or a list naming it.
func isNumberType(t any) bool {
	switch t := t.(type) {
	case string:
		return t == "number"
	case []any:
		return slices.Contains(t, any("number"))
	}
	return false
}
