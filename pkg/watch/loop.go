package watch

import (
	"context"
	"maps"
	"slices"
	"time"
)

// Clock makes the quiet-period timers: [RealClock] in kitsoki, a clock the
// test fires in tests.
type Clock interface {
	After(d time.Duration) <-chan time.Time
}

// RealClock is the wall clock.
type RealClock struct{}

// After is time.After.
func (RealClock) After(d time.Duration) <-chan time.Time { return time.After(d) }

// Options configure [Loop].
type Options struct {
	// Clock times the quiet period (nil: [RealClock]).
	Clock Clock
	// Quiet is how long no event must arrive before a batch runs: an
	// editor's save (write, rename, chmod) or a checkout is one batch.
	Quiet time.Duration
	// Run runs one batch: the changed paths, sorted, each once.
	Run func(ctx context.Context, changed []string)
	// Error is told of a source's errors (nil: ignored); the loop goes on.
	Error func(err error)
}

// Loop gathers src's events into batches and runs each after Quiet
// without a new event, until ctx ends (nil) or src closes its events
// (nil). Events that arrive while a batch runs start the next batch.
func Loop(ctx context.Context, src Source, o Options) error {
	clock := o.Clock
	if clock == nil {
		clock = RealClock{}
	}
	pending := map[string]bool{}
	var quiet <-chan time.Time
	events, errs := src.Events(), src.Errors()
	for {
		select {
		case <-ctx.Done():
			return nil
		case p, ok := <-events:
			if !ok {
				return nil
			}
			pending[p] = true
			quiet = clock.After(o.Quiet)
		case err, ok := <-errs:
			if !ok {
				errs = nil
				continue
			}
			if o.Error != nil {
				o.Error(err)
			}
		case <-quiet:
			quiet = nil
			batch := slices.Sorted(maps.Keys(pending))
			clear(pending)
			if ctx.Err() == nil {
				o.Run(ctx, batch)
			}
		}
	}
}
