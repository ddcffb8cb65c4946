package yamlnode

import (
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// isMinusZero reports whether n is a whole number written with a minus
// sign that is 0 (`-0`, `-0x0`), which upstream's decoder holds as a signed
// integer.
func isMinusZero(n *yaml.Node) bool {
	if n.Kind != yaml.ScalarNode || n.Tag != "!!int" || !strings.HasPrefix(n.Value, "-") {
		return false
	}
	v, err := strconv.ParseInt(strings.ReplaceAll(n.Value, "_", ""), 0, 64)
	return err == nil && v == 0
}

// UpstreamScalars returns v, the value yaml.v3 decoded from n, with two
// kinds of scalar as upstream's decoder holds them: a whole number n writes
// as `-0` an int64 0 instead of yaml.v3's int 0, which drops the sign
// (type() says int, a when: counts it false: conformance
// cassette-minus-zero), and a `!!binary` the bytes StoryScalars.Value gives
// instead of yaml.v3's string (conformance cassette-binary). Maps and
// lists are changed in place; merge keys are not followed.
func UpstreamScalars(n *yaml.Node, v any) any {
	n = Deref(n)
	if n == nil {
		return v
	}
	switch n.Kind {
	case yaml.ScalarNode:
		if isMinusZero(n) || n.Tag == "!!binary" {
			return StoryScalars.Value(n)
		}
	case yaml.SequenceNode:
		if l, ok := v.([]any); ok && len(l) == len(n.Content) {
			for i, c := range n.Content {
				l[i] = UpstreamScalars(c, l[i])
			}
		}
	case yaml.MappingNode:
		m, ok := v.(map[string]any)
		if !ok {
			return v
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := Deref(n.Content[i])
			if k == nil || k.Kind != yaml.ScalarNode || k.Tag == "!!merge" {
				continue
			}
			if e, ok := m[k.Value]; ok {
				m[k.Value] = UpstreamScalars(n.Content[i+1], e)
			}
		}
	}
	return v
}
