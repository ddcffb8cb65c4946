package graph

import (
	"cmp"

	"kitsoki/pkg/story"
)

// NodeKind says what a node of the drawing stands for.
type NodeKind int

const (
	// KindState is an atomic state.
	KindState NodeKind = iota
	// KindCompound is a compound state, drawn as a cluster of its children.
	KindCompound
	// KindParallel is a parallel state, drawn as a cluster of its regions.
	KindParallel
	// KindImport is the wrapper state of an imports: alias.
	KindImport
	// KindCollapsed is a cluster below --depth drawn as one node.
	KindCollapsed
	// KindExit is an exit of the top story (@exit:<name>).
	KindExit
	// KindDynamic is a templated target, chosen at run time.
	KindDynamic
	// KindMissing is a target that names no state.
	KindMissing
	// KindStub is a state outside the subtree drawn with --state.
	KindStub
)

// Node is one state (or exit, templated target, stub) of the drawing.
type Node struct {
	// ID is unique in the drawing: letters, digits and underscores only.
	ID string
	// Path is the state's dotted path after the fold (an exit's name, a
	// target as written, a stub's outside path).
	Path  string
	Label string
	Kind  NodeKind
	// Initial marks the fixed initial child of its parent; Root the root:
	// state; TemplatedInitial a compound whose initial: is a template.
	Terminal, Initial, Root, TemplatedInitial bool
	// Source is the imports: source of a wrapper.
	Source string
	// Parent is the cluster the node is drawn in (nil at the top).
	Parent   *Node
	Children []*Node
	// Pos is where the state was written.
	Pos story.Pos
	// States are the paths a collapsed node stands for; Inner counts the
	// arcs the collapse hides; Was is its kind before the collapse.
	States []string
	Inner  int
	Was    NodeKind
}

// Cluster reports whether the node is drawn as a cluster of its children.
func (n *Node) Cluster() bool {
	return n.Kind == KindCompound || n.Kind == KindParallel || n.Kind == KindImport
}

// within reports whether n is anc or lies inside it.
func (n *Node) within(anc *Node) bool {
	for p := n; p != nil; p = p.Parent {
		if p == anc {
			return true
		}
	}
	return false
}

// EdgeKind says what kind of move an edge is; each is drawn in its own style.
type EdgeKind int

const (
	// EdgeArc is an arm of an on: intent.
	EdgeArc EdgeKind = iota
	// EdgeExit is an arm that leaves through an exit.
	EdgeExit
	// EdgeOnError is an effect's on_error: redirect.
	EdgeOnError
	// EdgeTimeout is a state's timeout: move.
	EdgeTimeout
	// EdgeOnComplete is a background job's on_complete target.
	EdgeOnComplete
)

var edgeKindNames = map[EdgeKind]string{EdgeExit: "exit", EdgeOnError: "on_error", EdgeTimeout: "timeout", EdgeOnComplete: "on_complete"}

func (k EdgeKind) String() string { return cmp.Or(edgeKindNames[k], "arc") }

// Edge is one move of the machine: an arm, an exit, an on_error redirect,
// a timeout or an on_complete target.
type Edge struct {
	Kind EdgeKind
	// From is the path of the state that declares the move; To the path
	// it resolves to ("" for an exit, a templated or a missing target).
	From, To string
	// Intent is the arm's intent; for on_error and on_complete the
	// handler the effect invokes.
	Intent string
	// Arm is the arm's index among its intent's arms.
	Arm int
	// Guard is the arm's when:; After a timeout's duration; Exit the
	// exit's name.
	Guard, After, Exit string
	// Target is the target as written after the fold.
	Target string
	// Chosen marks one of the states a templated target names.
	Chosen bool
	// Pos is where the move was written.
	Pos story.Pos
	// Merged lists the moves a collapsed view draws as this one edge.
	Merged []*Edge

	tail, head *Node // the nodes the edge is drawn between
}

func (e *Edge) moves() []*Edge {
	if len(e.Merged) > 0 {
		return e.Merged
	}
	return []*Edge{e}
}

// Graph is a story's machine as a drawing: nodes in clusters, edges
// between them.
type Graph struct {
	// Title is the story's app.title (app.id when it has none).
	Title string
	// Top holds the top-level nodes in declaration order; exits,
	// templated targets and stubs come last.
	Top   []*Node
	Edges []*Edge
	// Start is the root: state's node (nil when a view leaves it out).
	Start *Node
	// Slots are the required slots without a default of each intent:
	// what a kitsoki run --intent needs --slot for.
	Slots map[string][]string
}

// Nodes returns every node of the drawing, depth first in drawing order.
func (g *Graph) Nodes() []*Node { return flatten(nil, g.Top) }

// flatten appends ns and their subtrees to out, depth first.
func flatten(out, ns []*Node) []*Node {
	for _, n := range ns {
		out = flatten(append(out, n), n.Children)
	}
	return out
}
