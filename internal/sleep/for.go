package sleep

import (
	"context"
	"time"
)

// For waits d or until ctx ends, whichever comes first, and returns ctx's
// error if it ended first (for d <= 0, at once: ctx's error or nil).
func For(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
