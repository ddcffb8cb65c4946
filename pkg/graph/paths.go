package graph

import "slices"

// IntentPaths finds, for each state of g a sequence of intents can reach
// from the root, the shortest such sequence: a breadth-first search over
// the on: arms of the whole drawing (call it before View narrows it).
// Guards and templated choices are ignored; timeouts, on_error and
// on_complete moves and the wildcard intent are not steps. Ties go to the
// arm declared first.
func (g *Graph) IntentPaths() map[string][]string { return g.paths(false) }

// MoveReachable lists the states reachable from the root when timeouts,
// on_error and on_complete moves count as steps too.
func (g *Graph) MoveReachable() map[string]bool {
	out := map[string]bool{}
	for p := range g.paths(true) {
		out[p] = true
	}
	return out
}

// paths is the search of IntentPaths; with auto, timeouts, on_error and
// on_complete moves are steps that add no intent.
func (g *Graph) paths(auto bool) map[string][]string {
	states := map[string]*Node{}
	for _, n := range g.Nodes() {
		switch n.Kind {
		case KindState, KindCompound, KindParallel, KindImport:
			states[n.Path] = n
		}
	}
	arms := map[string][]*Edge{}
	for _, e := range g.Edges {
		if states[e.To] == nil {
			continue
		}
		if (e.Kind == EdgeArc || e.Kind == EdgeExit) && e.Intent != "*" || auto {
			arms[e.From] = append(arms[e.From], e)
		}
	}
	paths := map[string][]string{}
	if g.Start == nil || states[g.Start.Path] == nil {
		return paths
	}
	var queue []*Node
	entered := map[*Node]bool{}
	mark := func(n *Node, path []string) {
		if _, seen := paths[n.Path]; !seen {
			paths[n.Path] = path
			queue = append(queue, n)
		}
	}
	// down enters n and what entering it enters below it.
	var down func(n *Node, path []string)
	down = func(n *Node, path []string) {
		if entered[n] {
			return
		}
		entered[n] = true
		mark(n, path)
		all := n.Kind == KindParallel || n.TemplatedInitial
		for _, c := range n.Children {
			if all || c.Initial {
				down(c, path)
			}
		}
	}
	// enter enters n from the state the session rests in (nil at the
	// start): the levels above n up to the one both lie in, and n.
	enter := func(n, from *Node, path []string) {
		down(n, path)
		for a := n.Parent; a != nil && (from == nil || !from.within(a)); a = a.Parent {
			mark(a, path)
		}
	}
	enter(g.Start, nil, []string{})
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		for a := n; a != nil; a = a.Parent {
			for _, e := range arms[a.Path] {
				next := paths[n.Path]
				if e.Kind == EdgeArc || e.Kind == EdgeExit {
					next = append(slices.Clip(next), e.Intent)
				}
				enter(states[e.To], n, next)
			}
		}
	}
	return paths
}
