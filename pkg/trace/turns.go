package trace

// turnCounter counts the distinct turns of events fed in order.
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
