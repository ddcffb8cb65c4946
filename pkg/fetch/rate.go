package fetch

import (
	"context"
	"sync"
	"time"
)

// rateLimiter holds one download (all its parts together) to a number of
// bytes per second: after each write it sleeps until the bytes sent so far
// are due. Credit for idle time (a retry's backoff, a slow server) is
// capped at one second, so a pause is never followed by a burst.
type rateLimiter struct {
	rate  int64 // bytes per second, > 0
	now   func() time.Time
	sleep func(ctx context.Context, d time.Duration) error

	mu    sync.Mutex
	start time.Time
	sent  int64
}

// newRateLimiter returns nil (no limit) unless f.RateLimit is positive.
func (f *Fetcher) newRateLimiter() *rateLimiter {
	if f.RateLimit <= 0 {
		return nil
	}
	r := &rateLimiter{rate: f.RateLimit, now: f.now, sleep: f.sleep}
	if r.now == nil {
		r.now = time.Now
	}
	if r.sleep == nil {
		r.sleep = sleepCtx
	}
	return r
}

// chunk is the largest read between two waits: a quarter second of the
// rate (at least 4 KiB), so that no wait outlasts a stall timeout.
func (r *rateLimiter) chunk(max int) int {
	if r == nil {
		return max
	}
	return int(min(int64(max), r.rate/4+4<<10))
}

// wait records n bytes written and sleeps until they are due.
func (r *rateLimiter) wait(ctx context.Context, n int64) error {
	if r == nil {
		return nil
	}
	r.mu.Lock()
	now := r.now()
	if r.start.IsZero() {
		r.start = now
	}
	if due := r.start.Add(r.duration(r.sent)); now.Sub(due) > time.Second {
		r.start = r.start.Add(now.Sub(due) - time.Second)
	}
	r.sent += n
	d := r.start.Add(r.duration(r.sent)).Sub(now)
	r.mu.Unlock()
	if d <= 0 {
		return nil
	}
	return r.sleep(ctx, d)
}

// duration is how long n bytes take at the rate.
func (r *rateLimiter) duration(n int64) time.Duration {
	return time.Duration(float64(n) / float64(r.rate) * float64(time.Second))
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
