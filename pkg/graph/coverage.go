package graph

// Coverage answers, for a coverage profile, whether the fixtures reached a
// state or a move. It is the seam through which kitsoki test's profiles
// colour a drawing: the renderers ask it about every state and move they
// draw and never read a profile themselves.
type Coverage interface {
	// StateReached reports whether a fixture entered the state at path (a
	// dotted path after the fold); known is false when the profile says
	// nothing of it.
	StateReached(path string) (reached, known bool)
	// EdgeReached reports whether a fixture took the move e (identified by
	// its Kind, From, Intent, Arm and Pos).
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
	// PartlyReached: a collapsed node or merged edge of which some
	// states or moves were reached and some not.
	PartlyReached
)

// and is what a node or edge whose parts so far are r is with one more
// part o: an unknown part changes nothing, a reached and an unreached one
// make it partly reached.
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
