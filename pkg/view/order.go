package view

import (
	"kitsoki/internal/safefile"
	"maps"
	"slices"
	"sync"

	"go.yaml.in/yaml/v3"

	"kitsoki/internal/yamlnode"
	"kitsoki/pkg/story"
)

// maxOrderFile bounds how much of a story file is re-read to recover the
// declaration order of mapping keys.
const maxOrderFile = 16 << 20

// orderCache recovers the declaration order of mapping keys inside view
// elements (kv pairs, form fields): the story model keeps element bodies
// as Go maps, while upstream prints pairs in the order they were written.
// The element's own YAML file is parsed once and the element found by its
// position; when that fails the keys are sorted.
type orderCache struct {
	mu    sync.Mutex
	files map[string]*yaml.Node // nil when unreadable
	index map[string]map[[2]int]*yaml.Node
}

func newOrderCache() *orderCache {
	return &orderCache{files: map[string]*yaml.Node{}, index: map[string]map[[2]int]*yaml.Node{}}
}

// kvKeys returns the keys of a kv element's pairs in declaration order.
func (c *orderCache) kvKeys(el *story.ViewElement, pairs map[string]any) []string {
	return c.keys(el, []string{"kv", "pairs"}, pairs)
}

// keys returns the keys of m (the mapping at path inside element el) in
// the order the file declares them; keys the file does not show (merged
// in, interpolated) follow in sorted order.
func (c *orderCache) keys(el *story.ViewElement, path []string, m map[string]any) []string {
	if len(m) == 0 {
		return nil
	}
	var out []string
	seen := map[string]bool{}
	if n := c.find(el.Pos); n != nil {
		for _, k := range path {
			n = child(n, k)
			if n == nil {
				break
			}
		}
		if n != nil && n.Kind == yaml.MappingNode {
			for i := 0; i+1 < len(n.Content); i += 2 {
				k := n.Content[i].Value
				if _, ok := m[k]; ok && !seen[k] {
					seen[k] = true
					out = append(out, k)
				}
			}
		}
	}
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if !seen[k] {
			out = append(out, k)
		}
	}
	return out
}

func child(n *yaml.Node, key string) *yaml.Node {
	n = yamlnode.Deref(n)
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	return yamlnode.Deref(yamlnode.Get(n, key))
}

// find returns the mapping node of the file at pos.
func (c *orderCache) find(pos story.Pos) *yaml.Node {
	if pos.File == "" || pos.Line <= 0 {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	idx, ok := c.index[pos.File]
	if !ok {
		idx = map[[2]int]*yaml.Node{}
		if root := readYAML(pos.File); root != nil {
			var walk func(n *yaml.Node, depth int)
			walk = func(n *yaml.Node, depth int) {
				if n == nil || depth > 400 {
					return
				}
				if n.Kind == yaml.MappingNode {
					k := [2]int{n.Line, n.Column}
					if _, dup := idx[k]; !dup {
						idx[k] = n
					}
				}
				for _, ch := range n.Content {
					walk(ch, depth+1)
				}
			}
			walk(root, 0)
		}
		c.index[pos.File] = idx
	}
	return idx[[2]int{pos.Line, pos.Col}]
}

func readYAML(path string) *yaml.Node {
	data, err := safefile.ReadFile(path, maxOrderFile)
	if err != nil {
		return nil
	}
	var root yaml.Node
	if yaml.Unmarshal(data, &root) != nil {
		return nil
	}
	return &root
}
