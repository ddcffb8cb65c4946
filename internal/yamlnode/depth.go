package yamlnode

import (
	"strconv"

	"go.yaml.in/yaml/v3"
)

// MaxDepth is how deeply collections may nest in a value: a Walker's
// bound, and [TooDeep]'s for a reader that decodes without one.
const MaxDepth = maxDepth

// TooDeep is the first collection under n nested more than max levels of
// collections deep, aliases followed as a decoder expands them (a chain
// of aliases each naming the last nests as deep as it is long); nil when
// none is. Each node is measured once, so the walk costs the file's
// nodes, and it never goes deeper than max.
func TooDeep(n *yaml.Node, max int) *yaml.Node {
	d := depthWalk{max: max, height: map[*yaml.Node]int{}}
	d.of(n, 0)
	return d.over
}

// depthWalk measures the height of nodes (the levels of collections at
// and under one), memoized, stopping at the first past max.
type depthWalk struct {
	max    int
	height map[*yaml.Node]int
	over   *yaml.Node
}

// of is the height of n, entered at depth levels below the top; once a
// node past max is found it is kept in over and the walk ends.
func (d *depthWalk) of(n *yaml.Node, depth int) int {
	n = Deref(n)
	if n == nil || d.over != nil {
		return 0
	}
	if h, ok := d.height[n]; ok {
		if depth+h > d.max {
			d.over = n
		}
		return h
	}
	level := 0
	if n.Kind == yaml.MappingNode || n.Kind == yaml.SequenceNode {
		level = 1
	}
	if depth+level > d.max {
		d.over = n
		return 0
	}
	d.height[n] = 0 // an alias of an ancestor (refused by the decoder) adds nothing
	h := 0
	for _, c := range n.Content {
		h = max(h, d.of(c, depth+level))
		if d.over != nil {
			return 0
		}
	}
	d.height[n] = h + level
	return h + level
}

// TooDeepMsg is the refusal of the value [TooDeep] found in a file of the
// kind what ("front matter"), placed by the caller.
func TooDeepMsg(what string) string {
	return "values nested more than " + strconv.Itoa(MaxDepth) + " levels deep (lists and mappings, aliases counted as written out); kitsoki does not read or write such a " + what + ": flatten it"
}
