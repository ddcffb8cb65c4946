package story

import (
	"slices"
	"strconv"
	"strings"

	"kitsoki/internal/yamlnode"

	"go.yaml.in/yaml/v3"
)

// recordWith keeps the position of every value of an effect's with: by
// path, or, for a tree with an alias, the nodes (followed lazily).
func (p *fileParser) recordWith(e *Effect, v *yaml.Node) {
	d := yamlnode.Deref(v)
	if d == nil {
		return
	}
	if hasAlias(d, 0) {
		e.with = &withIndex{node: d}
		return
	}
	wi := &withIndex{seq: d.Kind == yaml.SequenceNode}
	e.with = wi
	out := []withAt{}
	var walk func(n *yaml.Node, path string)
	walk = func(n *yaml.Node, path string) {
		add := func(seg string, c *yaml.Node) {
			k := seg
			if path != "" {
				k = path + "." + seg
			}
			out = append(out, withAt{path: k, line: int32(c.Line), col: int32(c.Column), seq: c.Kind == yaml.SequenceNode})
			walk(c, k)
		}
		switch n.Kind {
		case yaml.MappingNode:
			last := make(map[string]int, len(n.Content)/2) // the last index of each key
			for i := 0; i+1 < len(n.Content); i += 2 {
				last[n.Content[i].Value] = i
			}
			for i := 0; i+1 < len(n.Content); i += 2 {
				key := n.Content[i].Value
				// Segments never hold '.' or ']'; a repeated key resolves to its last value.
				if strings.ContainsAny(key, ".]") || last[key] != i {
					continue
				}
				add(key, n.Content[i+1])
			}
		case yaml.SequenceNode:
			for i, c := range n.Content {
				add("["+strconv.Itoa(i), c)
			}
		}
	}
	walk(d, "")
	slices.SortFunc(out, func(a, b withAt) int { return strings.Compare(a.path, b.path) })
	wi.at = out[:len(out):len(out)]
}

// hasAlias reports an alias under n (too deep counts as one).
func hasAlias(n *yaml.Node, depth int) bool {
	return n.Kind == yaml.AliasNode || depth > 200 || slices.ContainsFunc(n.Content, func(c *yaml.Node) bool { return hasAlias(c, depth+1) })
}

// WithPos returns the position of the with: value at a dotted key, of its
// deepest existing part, or of the with: key.
func (e *Effect) WithPos(key string) Pos {
	best := e.PosOf("with")
	if e.with == nil {
		return best
	}
	if e.with.node != nil {
		return e.withNodePos(key)
	}
	at := e.with.at
	key = strings.ReplaceAll(strings.ReplaceAll(key, "[", ".["), "]", "")
	path, seq := "", e.with.seq
	for _, k := range strings.Split(strings.TrimPrefix(key, "."), ".") {
		if seq {
			// A list item is named by its index, as the node walk reads it.
			i, err := strconv.Atoi(strings.TrimPrefix(k, "["))
			if !strings.HasPrefix(k, "[") || err != nil || i < 0 {
				break
			}
			k = "[" + strconv.Itoa(i)
		}
		if path != "" {
			path += "."
		}
		path += k
		i, found := slices.BinarySearchFunc(at, path, func(w withAt, p string) int { return strings.Compare(w.path, p) })
		if !found {
			break
		}
		w := at[i]
		best, seq = Pos{File: e.Pos.File, Line: int(w.line), Col: int(w.col)}, w.seq
	}
	return best
}

// withNodePos is withPos over a with: tree kept as nodes.
func (e *Effect) withNodePos(key string) Pos {
	n := e.with.node
	best := e.PosOf("with")
	key = strings.ReplaceAll(strings.ReplaceAll(key, "[", ".["), "]", "")
	for _, k := range strings.Split(strings.TrimPrefix(key, "."), ".") {
		var next *yaml.Node
		switch {
		case strings.HasPrefix(k, "[") && n.Kind == yaml.SequenceNode:
			if i, err := strconv.Atoi(k[1:]); err == nil && i >= 0 && i < len(n.Content) {
				next = yamlnode.Deref(n.Content[i])
			}
		case n.Kind == yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				if n.Content[i].Value == k {
					next = yamlnode.Deref(n.Content[i+1])
				}
			}
		}
		if next == nil {
			break
		}
		n = next
		best = Pos{File: e.Pos.File, Line: n.Line, Col: n.Column}
	}
	return best
}
