package graph

// An IntentPath is the intents of one route from the root: its last
// intent and the path it extends, so the paths of a story's states share
// their prefixes (a chain of n states holds n steps, where whole lists
// would hold n²/2 intents). nil and the root's are empty.
type IntentPath struct {
	prev   *IntentPath
	intent string
	n      int // intents on the path
	bytes  int // bytes of their names together
}

// then is p followed by intent.
func (p *IntentPath) then(intent string) *IntentPath {
	return &IntentPath{prev: p, intent: intent, n: p.Len() + 1, bytes: p.Bytes() + len(intent)}
}

// Len is the number of intents on p.
func (p *IntentPath) Len() int {
	if p == nil {
		return 0
	}
	return p.n
}

// Bytes is the bytes of p's intent names together.
func (p *IntentPath) Bytes() int {
	if p == nil {
		return 0
	}
	return p.bytes
}

// Intents lists p's intents, from the root's first (Len of them: check it
// before listing a path that may be long).
func (p *IntentPath) Intents() []string {
	out := make([]string, p.Len())
	for q := p; q.Len() > 0; q = q.prev {
		out[q.n-1] = q.intent
	}
	return out
}

// IntentPaths finds, for each state of g a sequence of intents can reach
// from the root, the shortest such sequence: a breadth-first search over
// the on: arms of the whole drawing (call it before View narrows it).
// Guards and templated choices are ignored; timeouts, on_error and
// on_complete moves and the wildcard intent are not steps. Ties go to the
// arm declared first.
func (g *Graph) IntentPaths() map[string]*IntentPath { return g.paths(false) }

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
// on_complete moves are steps that add no intent. A state's arms are
// followed once, from the first state dequeued that lies within it (its
// path is the shortest of them all, the queue being in path order), so a
// compound's arms cost no search per state inside it (not arms times
// states, each step making a path).
func (g *Graph) paths(auto bool) map[string]*IntentPath {
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
	paths := map[string]*IntentPath{}
	if g.Start == nil || states[g.Start.Path] == nil {
		return paths
	}
	var queue []*Node
	entered := map[*Node]bool{}
	mark := func(n *Node, path *IntentPath) {
		if _, seen := paths[n.Path]; !seen {
			paths[n.Path] = path
			queue = append(queue, n)
		}
	}
	// down enters n and what entering it enters below it.
	var down func(n *Node, path *IntentPath)
	down = func(n *Node, path *IntentPath) {
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
	enter := func(n, from *Node, path *IntentPath) {
		down(n, path)
		for a := n.Parent; a != nil && (from == nil || !from.within(a)); a = a.Parent {
			mark(a, path)
		}
	}
	enter(g.Start, nil, &IntentPath{})
	// followed: states whose arms were followed; those above one were too
	followed := map[*Node]bool{}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		for a := n; a != nil && !followed[a]; a = a.Parent {
			followed[a] = true
			for _, e := range arms[a.Path] {
				next := paths[n.Path]
				if e.Kind == EdgeArc || e.Kind == EdgeExit {
					next = next.then(e.Intent)
				}
				enter(states[e.To], n, next)
			}
		}
	}
	return paths
}
