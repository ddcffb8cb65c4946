package trace

// turnCounter counts the distinct turns of one trace's events, fed in
// order: an event starts a turn when it is the first or its turn differs
// from the previous event's.
type turnCounter struct {
	n, last int
}

// see records one event's turn and reports whether it started a turn.
func (c *turnCounter) see(turn int) bool {
	if c.n > 0 && turn == c.last {
		return false
	}
	c.n++
	c.last = turn
	return true
}
