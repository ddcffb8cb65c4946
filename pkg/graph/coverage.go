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

// combine folds the answers for the parts of a node or edge.
func combine(parts []Reach) Reach {
	var yes, no bool
	for _, r := range parts {
		switch r {
		case Reached:
			yes = true
		case Unreached:
			no = true
		}
	}
	switch {
	case yes && no:
		return PartlyReached
	case yes:
		return Reached
	case no:
		return Unreached
	}
	return ReachUnknown
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
		parts := make([]Reach, 0, len(n.States))
		for _, p := range n.States {
			parts = append(parts, reach(cov.StateReached(p)))
		}
		return combine(parts)
	}
	return reach(cov.StateReached(n.Path))
}

// EdgeReach is what cov says of the moves e stands for.
func EdgeReach(cov Coverage, e *Edge) Reach {
	if cov == nil {
		return ReachUnknown
	}
	ms := e.moves()
	parts := make([]Reach, 0, len(ms))
	for _, m := range ms {
		parts = append(parts, reach(cov.EdgeReached(m)))
	}
	return combine(parts)
}
