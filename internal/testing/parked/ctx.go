package parked

import (
	"context"
	"sync/atomic"
	"time"
)

// Ctx is a context that ends when it is asked for its Done channel, once
// wait has returned: a select evaluates Done as it starts, so the test
// decides what else is ready then (an answer waiting in a goroutine, a
// process that exited, a timer due) and the select starts with both ready.
type Ctx struct {
	context.Context
	wait  func()
	err   error
	held  atomic.Bool
	ended atomic.Bool
}

// Ending returns a Ctx that ends with err after wait (nil: none).
func Ending(wait func(), err error) *Ctx {
	return &Ctx{Context: context.Background(), wait: wait, err: err}
}

// Hold keeps c live until Release: its Done is nil (never ready) and its
// Err nil, for the selects and checks before the one the test aims at.
func (c *Ctx) Hold() *Ctx {
	c.held.Store(true)
	return c
}

// Release lets the next Done end c.
func (c *Ctx) Release() { c.held.Store(false) }

// Done runs wait and returns a closed channel, or nil while c is held.
func (c *Ctx) Done() <-chan struct{} {
	if c.held.Load() {
		return nil
	}
	if c.wait != nil {
		c.wait()
	}
	c.ended.Store(true)
	done := make(chan struct{})
	close(done)
	return done
}

// Err is the ending's error once Done ended c, nil before.
func (c *Ctx) Err() error {
	if c.ended.Load() {
		return c.err
	}
	return nil
}

// Deadline reports none: c ends only through Done.
func (c *Ctx) Deadline() (time.Time, bool) { return time.Time{}, false }
