package yamlnode

import (
	"fmt"
	"reflect"

	"go.yaml.in/yaml/v3"
)

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

// RepeatedKey is the first key root holds twice as upstream's parser and
// decoder refuse it, in a file of the kind what ("cassette"; for a format
// of kitsoki's own, "plugin manifest", the same keys are refused, since a
// setting read from one of two places is lost silently): one written
// twice in one mapping anywhere ([FirstRepeatedKey]), else one a decoder
// into a value of type t reads twice (firstDecodedRepeat; nil t reads
// everything). at is the later key, msg names the key, the earlier one's
// place and the fix; (nil, "") when none.
func RepeatedKey(root *yaml.Node, t reflect.Type, what string) (at *yaml.Node, msg string) {
	if second, first := FirstRepeatedKey(root); second != nil {
		return second, fmt.Sprintf("mapping key %q already defined at line %d, column %d; the whole %s is refused: keep one of them", second.Value, first.Line, first.Column, what)
	}
	second, first, how := firstDecodedRepeat(root, t)
	if second == nil {
		return nil, ""
	}
	key := Deref(second).Value
	if how == mergedBeside {
		key = Deref(first).Value
		return second, fmt.Sprintf("key %q is written beside a merge key (<<:) that brings it too, the other at line %d, column %d; the whole %s is refused (duplicate key %q): keep one of them", key, first.Line, first.Column, what, key)
	}
	if second.Kind == yaml.AliasNode || first.Kind == yaml.AliasNode {
		return second, fmt.Sprintf("key %q is given twice in one mapping through an alias (*%s), the first at line %d, column %d; the whole %s is refused (duplicate key %q): keep one of them", key, aliasName(second, first), first.Line, first.Column, what, key)
	}
	return second, fmt.Sprintf("key %q is in two mappings of one merged list (<<: [...]), the first at line %d, column %d; the whole %s is refused (duplicate key %q): keep it in one of them", key, first.Line, first.Column, what, key)
}

// aliasName is the anchor name of whichever of a, b is an alias.
func aliasName(a, b *yaml.Node) string {
	if a.Kind == yaml.AliasNode {
		return a.Value
	}
	return b.Value
}
