package watch

import (
	"cmp"
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
	// MaxBatch is how many paths a batch gathers before it runs without
	// waiting for quiet (0: [DefaultMaxBatch]).
	MaxBatch int
}

// DefaultMaxBatch bounds the paths one batch gathers: a tool writing new
// files below a watched root faster than Quiet would otherwise grow the
// batch for as long as it ran, and run nothing.
const DefaultMaxBatch = 10_000

// Loop gathers src's events into batches and runs each after Quiet
// without a new event (or at once when it holds MaxBatch paths), until ctx
// ends (nil) or src closes its events (nil). Events that arrive while a
// batch runs start the next batch.
func Loop(ctx context.Context, src Source, o Options) error {
	clock := o.Clock
	if clock == nil {
		clock = RealClock{}
	}
	most := cmp.Or(max(o.MaxBatch, 0), DefaultMaxBatch)
	pending := map[string]bool{}
	var quiet <-chan time.Time
	run := func() {
		quiet = nil
		batch := slices.Sorted(maps.Keys(pending))
		pending = map[string]bool{} // a cleared map keeps its size
		if ctx.Err() == nil {
			o.Run(ctx, batch)
		}
	}
	events, errs := src.Events(), src.Errors()
	for {
		select {
		case <-ctx.Done():
			return nil
		case p, ok := <-events:
			if !ok {
				return nil
			}
			if pending[p] = true; len(pending) >= most {
				run()
				continue
			}
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
			run()
		}
	}
}
