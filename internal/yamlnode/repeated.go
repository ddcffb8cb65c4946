package yamlnode

import "go.yaml.in/yaml/v3"

// FirstRepeatedKey finds the key written twice in one mapping anywhere
// under root that comes first in the file: second is the later key, first
// the earlier one (nil, nil when none). Keys compare by their text, so
// `1` and `"1"` are one key, and a second merge key (`<<`) counts, as in a
// parser that refuses such a file whole. Aliases are not followed: each
// mapping is checked where it is written.
func FirstRepeatedKey(root *yaml.Node) (second, first *yaml.Node) {
	seen := map[string]*yaml.Node{}
	stack := []*yaml.Node{root}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if n == nil {
			continue
		}
		if n.Kind == yaml.MappingNode {
			clear(seen)
			for i := 0; i+1 < len(n.Content); i += 2 {
				k := n.Content[i]
				if k.Kind != yaml.ScalarNode {
					continue
				}
				if prev := seen[k.Value]; prev != nil {
					if second == nil || before(k, second) {
						second, first = k, prev
					}
					continue
				}
				seen[k.Value] = k
			}
		}
		for i := len(n.Content) - 1; i >= 0; i-- {
			if c := n.Content[i]; len(c.Content) > 0 {
				stack = append(stack, c)
			}
		}
	}
	return second, first
}

// before reports whether a is written before b.
func before(a, b *yaml.Node) bool {
	return a.Line < b.Line || a.Line == b.Line && a.Column < b.Column
}
