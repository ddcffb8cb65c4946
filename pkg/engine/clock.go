package engine

import (
	"sync"
	"time"
)

// Clock is the run's source of time. Timeouts, background-job delays and
// event timestamps read it. A real run uses the wall clock; kitsoki test
// passes a *VirtualClock that only Session.Advance moves.
type Clock interface {
	Now() time.Time
}

// realClock is the wall clock.
type realClock struct{}

func (realClock) Now() time.Time { return time.Now() }

// VirtualClock is a clock that never moves on its own: Session.Advance
// moves it (flow-format.md §5). It is safe for concurrent use.
type VirtualClock struct {
	mu  sync.Mutex
	now time.Time
}

// NewVirtualClock returns a virtual clock reading start (the flow rig uses
// the Unix epoch).
func NewVirtualClock(start time.Time) *VirtualClock { return &VirtualClock{now: start} }

// Now returns the clock's time.
func (c *VirtualClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// set moves the clock to t (never backwards).
func (c *VirtualClock) set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if t.After(c.now) {
		c.now = t
	}
}
