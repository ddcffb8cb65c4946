package flowtest

import (
	"errors"
	"fmt"
	"maps"

	"go.yaml.in/yaml/v3"

	"kitsoki/internal/yamlnode"
)

// maxAliasExpansion bounds the values alias nodes may expand to (a
// "billion laughs" fixture is an error, not an out-of-memory).
const maxAliasExpansion = 100000

// valueOf converts a YAML node into plain Go values: map[string]any,
// []any, string, int64, float64, bool, nil.
func (p *parser) valueOf(n *yaml.Node) any {
	v, err := plainValue(n)
	if err != nil {
		at := n
		if ke, ok := errors.AsType[*keyError](err); ok {
			at = ke.at
		}
		p.errf(at, ruleValue, "%v", err)
		return nil
	}
	return v
}

// keyError is an error about the key at, reported there.
type keyError struct {
	at  *yaml.Node
	msg string
}

func (e *keyError) Error() string { return e.msg }

// plainValue is n as valueOf reads it, within maxAliasExpansion.
func plainValue(n *yaml.Node) (any, error) {
	budget := maxAliasExpansion
	return nodeValue(n, &budget, 0)
}

// mergedEntries counts the entries a merge key's value src offers.
func mergedEntries(src any) int {
	srcs, ok := src.([]any)
	if !ok {
		srcs = []any{src}
	}
	n := 0
	for _, s := range srcs {
		m, _ := s.(map[string]any)
		n += len(m)
	}
	return n
}

func nodeValue(n *yaml.Node, budget *int, depth int) (any, error) {
	*budget--
	if *budget < 0 {
		return nil, fmt.Errorf("value too large (aliases expand to more than %d nodes); write the value out", maxAliasExpansion)
	}
	if depth > 200 {
		return nil, fmt.Errorf("value nested more than 200 levels deep")
	}
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return nil, nil
		}
		return nodeValue(n.Content[0], budget, depth+1)
	case yaml.AliasNode:
		if n.Alias == nil {
			return nil, fmt.Errorf("unknown alias")
		}
		return nodeValue(n.Alias, budget, depth+1)
	case yaml.SequenceNode:
		out := make([]any, 0, len(n.Content))
		for _, c := range n.Content {
			v, err := nodeValue(c, budget, depth+1)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	case yaml.MappingNode:
		out := make(map[string]any, len(n.Content)/2)
		merged := false
		// keys written (not merged, not an alias key): a key written twice
		// is a parse error upstream; one given again through an alias key
		// its decoder reads inside a value, the later one kept
		written := make(map[string]bool, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if isMergeKey(k) {
				if merged {
					return nil, fmt.Errorf("line %d: a second merge key (<<:) in one mapping: the existing engine refuses this fixture file (mapping key \"<<\" already defined); merge a list instead (<<: [*a, *b])", k.Line)
				}
				merged = true
				mv, err := nodeValue(v, budget, depth+1)
				if err != nil {
					return nil, err
				}
				// what a merge copies counts too: a chain of mappings each
				// merging the one before copies the chain into every link
				if *budget -= mergedEntries(mv); *budget < 0 {
					return nil, fmt.Errorf("value too large (aliases expand to more than %d nodes); write the value out", maxAliasExpansion)
				}
				if err := mergeInto(out, mv, v); err != nil {
					return nil, err
				}
				continue
			}
			kv, err := nodeValue(k, budget, depth+1)
			if err != nil {
				return nil, err
			}
			vv, err := nodeValue(v, budget, depth+1)
			if err != nil {
				return nil, err
			}
			key := keyString(kv)
			if k.Kind != yaml.AliasNode {
				if written[key] {
					return nil, &keyError{k, fmt.Sprintf("line %d: key %q appears twice in one mapping: the existing engine refuses this fixture file (mapping key %q already defined); keep one", k.Line, key, key)}
				}
				written[key] = true
			}
			out[key] = vv
		}
		return out, nil
	case yaml.ScalarNode:
		return scalarValue(n), nil
	}
	return nil, nil
}

// mergeInto copies into out the keys of a merge key's value mv (a mapping,
// or a list of them, in order), a later key replacing an earlier one as
// upstream's decoder does inside a value (docs/compat/flow-format.md
// "Merge keys"). at is the merge key's value, for the message.
func mergeInto(out map[string]any, mv any, at *yaml.Node) error {
	srcs, ok := mv.([]any)
	if !ok {
		srcs = []any{mv}
	}
	for _, src := range srcs {
		m, ok := src.(map[string]any)
		if !ok {
			return fmt.Errorf("line %d: <<: merges mappings, and this is %s: the existing engine refuses this fixture file; write a mapping (or an alias of one)", at.Line, valueKind(src))
		}
		maps.Copy(out, m)
	}
	return nil
}

// valueKind names a plain value's kind for messages.
func valueKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case []any:
		return "a list"
	}
	return fmt.Sprintf("the scalar %v", v)
}

// decodedText is scalar n read into a text field as upstream's decoder
// reads it (see scalarText); changed: it differs from the text written.
func decodedText(n *yaml.Node) (text string, changed bool) {
	if n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) != 0 || n.ShortTag() == "!!str" {
		return n.Value, false
	}
	switch x := scalarValue(n).(type) {
	case nil:
		return "", n.Value != ""
	case string:
		return x, x != n.Value
	default:
		s := fmt.Sprint(x)
		return s, s != n.Value
	}
}

// keyString is a mapping key's value as a map key: null as "null",
// anything else as fmt prints it (a string as itself).
func keyString(v any) string {
	if v == nil {
		return "null"
	}
	return fmt.Sprint(v)
}

// scalarValue is a fixture scalar's value as upstream's fixture decoder
// reads it.
func scalarValue(n *yaml.Node) any { return yamlnode.FixtureScalars.Value(n) }
