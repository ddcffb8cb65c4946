package fetch

import (
	"context"
	"math"
	"sync"
	"time"

	"kitsoki/internal/sleep"

	"golang.org/x/time/rate"
)

// rateLimiter holds one download (all its parts together) to a number of
// bytes per second on a token bucket (golang.org/x/time/rate) driven by the
// fetcher's clock, so tests move time instead of spending it. The bucket
// holds one second of bytes and starts empty: idle time (a retry's backoff,
// a slow server) earns at most one second of credit, and the first bytes
// are paced like the rest.
type rateLimiter struct {
	rate  int64 // bytes per second, > 0
	now   func() time.Time
	sleep func(ctx context.Context, d time.Duration) error

	mu  sync.Mutex
	lim *rate.Limiter // made empty at the first wait
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
		r.sleep = sleep.For
	}
	return r
}

// chunk is the largest read between two waits: a quarter second of the
// rate, at least one byte, so that every write is one reservation (never
// more than the bucket holds) and no wait outlasts a stall timeout.
func (r *rateLimiter) chunk(max int) int {
	if r == nil {
		return max
	}
	return int(min(int64(max), r.burst()/4+1))
}

// burst is the bucket's size: one second of bytes.
func (r *rateLimiter) burst() int64 { return min(r.rate, math.MaxInt32) }

// wait records n bytes written and sleeps until they are due.
func (r *rateLimiter) wait(ctx context.Context, n int64) error {
	if r == nil {
		return nil
	}
	r.mu.Lock()
	now := r.now()
	burst := r.burst()
	if r.lim == nil {
		r.lim = rate.NewLimiter(rate.Limit(r.rate), int(burst))
		r.lim.ReserveN(now, int(burst))
	}
	// A reservation may not exceed the bucket (a read never does); pieces
	// reserved at the same instant queue behind each other, so the last
	// one's delay is the whole write's.
	var d time.Duration
	for n > 0 {
		piece := min(n, burst)
		d = r.lim.ReserveN(now, int(piece)).DelayFrom(now)
		n -= piece
	}
	r.mu.Unlock()
	if d <= 0 {
		return nil
	}
	return r.sleep(ctx, d)
}
