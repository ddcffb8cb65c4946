package graph

import "kitsoki/pkg/story"

// NodeKind says what a node of the drawing stands for.
type NodeKind int

const (
	// KindState is an atomic state.
	KindState NodeKind = iota
	// KindCompound is a compound state, drawn as a cluster of its children.
	KindCompound
	// KindParallel is a parallel state, drawn as a cluster of its regions.
	KindParallel
	// KindImport is the wrapper state of an imports: alias, drawn as a
	// cluster of the child's states.
	KindImport
	// KindCollapsed is a compound (parallel, import) state below --depth,
	// drawn as one node standing for its whole subtree.
	KindCollapsed
	// KindExit is an exit of the top story (@exit:<name>).
	KindExit
	// KindDynamic is a templated target, chosen at run time.
	KindDynamic
	// KindMissing is a target that names no state (a lint finding the
	// existing engine's loader accepts, such as a dangling on_error).
	KindMissing
	// KindStub is a state outside the subtree drawn with --state, at the
	// other end of an arc that crosses its border.
	KindStub
)

// Node is one state (or exit, templated target, stub) of the drawing.
type Node struct {
	// ID is the node's identifier in every output format: unique in the
	// drawing, letters, digits and underscores only.
	ID string
	// Path is the state's dotted path after the fold; for an exit its
	// name, for a templated or missing target the target as written, for a
	// stub the outside state's path.
	Path  string
	Label string
	Kind  NodeKind
	// Terminal marks a terminal: true state; Initial the initial child of
	// its compound parent (a fixed initial:, not a templated one); Root the
	// story's root: state; TemplatedInitial a compound whose initial: is a
	// template (any child may be entered first).
	Terminal, Initial, Root, TemplatedInitial bool
	// Source is the imports: source of a wrapper (KindImport, or a
	// collapsed one).
	Source string
	// Parent is the cluster the node is drawn in (nil at the top);
	// Children are the nodes of a cluster in declaration order.
	Parent   *Node
	Children []*Node
	// Pos is where the state was written (its key), in the author's file.
	Pos story.Pos
	// States are the state paths a collapsed node stands for (its own and
	// every descendant's), for coverage; Inner counts the arcs drawn inside
	// it that the collapse hides.
	States []string
	Inner  int
	// Was is a collapsed node's kind before the collapse (compound,
	// parallel or import).
	Was NodeKind
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
	// EdgeExit is an arm that leaves through an exit: @exit:<name> at the
	// top story, or an imported child's exit mapped to a parent state.
	EdgeExit
	// EdgeOnError is an effect's on_error: redirect.
	EdgeOnError
	// EdgeTimeout is a state's timeout: move.
	EdgeTimeout
	// EdgeOnComplete is a background job's on_complete target.
	EdgeOnComplete
)

func (k EdgeKind) String() string {
	switch k {
	case EdgeExit:
		return "exit"
	case EdgeOnError:
		return "on_error"
	case EdgeTimeout:
		return "timeout"
	case EdgeOnComplete:
		return "on_complete"
	}
	return "arc"
}

// Edge is one move of the machine: an arm, an exit, an on_error redirect,
// a timeout or an on_complete target.
type Edge struct {
	Kind EdgeKind
	// From is the path of the state that declares the move (for an on:
	// arm, the state whose on: block holds it); To the path it resolves
	// to ("" for an exit, a templated or a missing target).
	From, To string
	// Intent is the arm's intent ("*" for the wildcard); for on_error and
	// on_complete the handler the effect invokes.
	Intent string
	// Arm is the arm's index among its intent's arms (a guarded arm and
	// its fallback are two edges).
	Arm int
	// Guard is the arm's when: expression; After a timeout's duration;
	// Exit the exit's name (EdgeExit).
	Guard, After, Exit string
	// Target is the target as written after the fold.
	Target string
	// Chosen marks one of the states a templated target names: the
	// template chooses among them at run time.
	Chosen bool
	// Pos is where the move was written: the arm (its list item or flow
	// mapping), the on_error: or target: key of the effect, the timeout:
	// block.
	Pos story.Pos
	// Merged lists the moves a collapsed view draws as this one edge
	// (nil for a single move).
	Merged []*Edge

	// tail and head are the nodes the edge is drawn between.
	tail, head *Node
}

// moves returns the moves the edge stands for.
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
	// Top holds the top-level nodes (clusters hold the rest), in
	// declaration order; exits, templated targets and stubs come last.
	Top   []*Node
	Edges []*Edge
	// Start is the root: state's node (nil when a --state view leaves it
	// out).
	Start *Node
	// Slots are the required slots without a default of each intent that
	// has any (global intents and state-local ones), in declaration order:
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
