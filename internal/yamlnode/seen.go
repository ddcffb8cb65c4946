package yamlnode

import "go.yaml.in/yaml/v3"

// smallMapping is the key count up to which Seen scans instead of using a map.
const smallMapping = 16

// Seen finds the repeated keys of one mapping: Prev(i, key) is the first
// earlier string key (merge keys aside) written key, or nil.
type Seen struct {
	content []*yaml.Node
	m       map[string]*yaml.Node
}

// NewSeen starts the search over the mapping n (its Content as pairs).
func NewSeen(n *yaml.Node) Seen {
	s := Seen{content: n.Content}
	if len(n.Content) > 2*smallMapping {
		s.m = make(map[string]*yaml.Node, len(n.Content)/2)
	}
	return s
}

// Prev returns the key node of key before the pair at Content[i] (nil for the first), recording i.
func (s *Seen) Prev(i int, key string) *yaml.Node {
	if s.m != nil {
		if prev, ok := s.m[key]; ok {
			return prev
		}
		s.m[key] = Deref(s.content[i])
		return nil
	}
	for j := 0; j+1 < i; j += 2 {
		if k := Deref(s.content[j]); k != nil && k.Kind == yaml.ScalarNode && k.Tag != "!!merge" && k.Value == key {
			return k
		}
	}
	return nil
}
