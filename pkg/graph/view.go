package graph

import (
	"fmt"
	"strings"

	"kitsoki/internal/yamlnode"
)

// View narrows a drawing for a big story.
type View struct {
	// State, when set, draws only the subtree under the state at this
	// path; states across its border are drawn as stubs.
	State string
	// Depth, when positive, draws that many levels of states and
	// collapses each compound state on the last level into one node.
	Depth int
}

// StateError is a View.State that names no state of the story.
type StateError struct {
	State string
	// Suggest is the closest state path, "" when none is close.
	Suggest string
	// Top lists the top-level states.
	Top []string
}

func (e *StateError) Error() string {
	msg := fmt.Sprintf("--state %s: the story has no such state", e.State)
	if e.Suggest != "" {
		return msg + "; did you mean `" + e.Suggest + "`?"
	}
	return msg + "; its top-level states are " + strings.Join(e.Top, ", ")
}

// View returns the drawing narrowed by v (g itself when v is zero), edges
// of one kind between the same collapsed nodes or stubs merged.
func (g *Graph) View(v View) (*Graph, error) {
	if v.State == "" && v.Depth <= 0 {
		return g, nil
	}
	var scope *Node
	if v.State != "" {
		want := strings.ReplaceAll(strings.Trim(v.State, "./"), "/", ".")
		var paths []string
		for _, n := range g.Nodes() {
			if n.Kind > KindCollapsed {
				continue
			}
			paths = append(paths, n.Path)
			if n.Path == want {
				scope = n
			}
		}
		if scope == nil {
			e := &StateError{State: v.State, Suggest: yamlnode.Suggest(want, paths)}
			for _, n := range g.Top {
				if n.Kind <= KindCollapsed {
					e.Top = append(e.Top, n.Path)
				}
			}
			return nil, e
		}
	}
	vb := &viewer{v: v, rep: map[*Node]*Node{}, stubs: map[string]*Node{}, merged: map[mergeKey]*Edge{}, out: &Graph{Title: g.Title}}
	if scope != nil {
		vb.out.Top = []*Node{vb.copy(scope, nil, 0)}
	} else {
		for _, n := range g.Top {
			if n.Kind <= KindCollapsed {
				vb.out.Top = append(vb.out.Top, vb.copy(n, nil, 1))
			}
		}
	}
	for _, e := range g.Edges {
		vb.edge(e)
	}
	vb.out.Top = append(vb.out.Top, vb.others...)
	if g.Start != nil {
		if n := vb.rep[g.Start]; n != nil && n.Kind != KindStub {
			vb.out.Start = n
		}
	}
	return vb.out, nil
}

type viewer struct {
	v      View
	out    *Graph
	rep    map[*Node]*Node // a node of the full drawing -> the node drawn for it
	stubs  map[string]*Node
	others []*Node // exits, templated and missing targets, stubs
	merged map[mergeKey]*Edge
}

type mergeKey struct {
	tail, head *Node
	kind       EdgeKind
}

// copy copies n (at depth d) into the view with its subtree, collapsing
// it when it is a cluster on the last level.
func (vb *viewer) copy(n *Node, parent *Node, d int) *Node {
	c := *n
	c.Parent, c.Children = parent, nil
	vb.rep[n] = &c
	if n.Cluster() && vb.v.Depth > 0 && d >= vb.v.Depth {
		c.Kind, c.Was = KindCollapsed, n.Kind
		for _, x := range flatten(nil, []*Node{n}) {
			c.States = append(c.States, x.Path)
			vb.rep[x] = &c
		}
		return &c
	}
	for _, ch := range n.Children {
		c.Children = append(c.Children, vb.copy(ch, &c, d+1))
	}
	return &c
}

// node returns the node drawn for n: its copy, the collapsed node holding
// it, a stub, or a copy of an exit or templated target.
func (vb *viewer) node(n *Node) *Node {
	if r := vb.rep[n]; r != nil {
		return r
	}
	if n.Kind <= KindCollapsed && vb.v.Depth > 0 {
		// an outside state is drawn at --depth levels from the top too
		for n.Parent != nil && n.depth() > vb.v.Depth {
			n = n.Parent
		}
	}
	c := *n
	c.Parent, c.Children = nil, nil
	if n.Kind <= KindCollapsed {
		if s := vb.stubs[n.Path]; s != nil {
			vb.rep[n] = s
			return s
		}
		c.Kind, c.ID, c.Label = KindStub, "o"+strings.TrimPrefix(n.ID, "s"), n.Path
		c.Root, c.Initial, c.Terminal = false, false, false
		vb.stubs[n.Path] = &c
	}
	vb.rep[n] = &c
	vb.others = append(vb.others, &c)
	return &c
}

// depth is the node's level: 1 at the top.
func (n *Node) depth() int {
	d := 0
	for p := n; p != nil; p = p.Parent {
		d++
	}
	return d
}

func (vb *viewer) edge(e *Edge) {
	inScope := func(n *Node) bool { r := vb.rep[n]; return r != nil && r.Kind != KindStub }
	if !inScope(e.tail) && !inScope(e.head) {
		return // both ends outside the subtree
	}
	t, h := vb.node(e.tail), vb.node(e.head)
	if t == h && t.Kind == KindCollapsed {
		t.Inner++
		return
	}
	if t.Kind == KindCollapsed || h.Kind == KindCollapsed || t.Kind == KindStub || h.Kind == KindStub {
		k := mergeKey{t, h, e.Kind}
		if m := vb.merged[k]; m != nil {
			m.Merged = append(m.Merged, e)
			return
		}
		m := *e
		m.Merged, m.tail, m.head = []*Edge{e}, t, h
		vb.merged[k] = &m
		vb.out.Edges = append(vb.out.Edges, &m)
		return
	}
	c := *e
	c.tail, c.head = t, h
	vb.out.Edges = append(vb.out.Edges, &c)
}
