package graph

// Coverage answers, for a coverage profile, whether the fixtures reached a
// state or a move; known is false when the profile says nothing of it.
type Coverage interface {
	// StateReached reports whether a fixture entered the state at path.
	StateReached(path string) (reached, known bool)
	// EdgeReached reports whether a fixture took the move e.
	EdgeReached(e *Edge) (reached, known bool)
}

// Reach is what a coverage profile says of a node or edge of a drawing.
type Reach int

const (
	// ReachUnknown: no profile, or the profile does not know it.
	ReachUnknown Reach = iota
	// Reached: every state or move it stands for was reached.
	Reached
	// Unreached: none was.
	Unreached
	// PartlyReached: some of a collapsed node's or merged edge's parts
	// were reached and some not.
	PartlyReached
)

// and is what a node or edge whose parts so far are r is with one more
// part o.
func (r Reach) and(o Reach) Reach {
	switch {
	case r == ReachUnknown:
		return o
	case o == ReachUnknown || o == r:
		return r
	}
	return PartlyReached
}

func reach(reached, known bool) Reach {
	switch {
	case !known:
		return ReachUnknown
	case reached:
		return Reached
	}
	return Unreached
}

// NodeReach is what cov says of the states n stands for (ReachUnknown for
// a nil cov, an exit, a templated target or a stub).
func NodeReach(cov Coverage, n *Node) Reach {
	if cov == nil {
		return ReachUnknown
	}
	switch n.Kind {
	case KindExit, KindDynamic, KindMissing, KindStub:
		return ReachUnknown
	case KindCollapsed:
		r := ReachUnknown
		for _, p := range n.States {
			r = r.and(reach(cov.StateReached(p)))
		}
		return r
	}
	return reach(cov.StateReached(n.Path))
}

// EdgeReach is what cov says of the moves e stands for.
func EdgeReach(cov Coverage, e *Edge) Reach {
	if cov == nil {
		return ReachUnknown
	}
	r := ReachUnknown
	for _, m := range e.moves() {
		r = r.and(reach(cov.EdgeReached(m)))
	}
	return r
}
