package fetch

import (
	"context"
	"sync"
	"testing"
	"time"
)

// fakeClock is the rate limiter's clock in tests: sleep advances it at
// once and records the wait, so a test counts the time a limited download
// must take without spending it.
type fakeClock struct {
	mu      sync.Mutex
	t       time.Time
	longest time.Duration
	sleeps  int
}

func (c *fakeClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) sleep(_ context.Context, d time.Duration) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
	c.longest = max(c.longest, d)
	c.sleeps++
	return nil
}

// --limit-rate holds a download, one stream or parallel parts together, to
// the rate: 2 MiB at 512 KiB/s takes four seconds of the limiter's clock,
// in waits short enough never to trip the stall timeout.
func TestRateLimitHoldsTheWholeDownloadToTheRate(t *testing.T) {
	data := randomData(2<<20, 50)
	for _, parts := range []int{1, 4} {
		fs := newFileServer(t, data)
		a := testModel(t, fs, data)
		clock := &fakeClock{t: time.Unix(1e9, 0)}
		f := newTestFetcher(t)
		f.Parts, f.PartThreshold, f.RateLimit = parts, 1, 512<<10
		f.now, f.sleep = clock.now, clock.sleep
		res := ensureOK(t, f, a)
		wantContent(t, res.Path, data)
		took := clock.now().Sub(time.Unix(1e9, 0))
		if took < 3900*time.Millisecond || took > 4100*time.Millisecond {
			t.Errorf("%d parts: the limiter's clock moved %s, want 4s for 2 MiB at 512 KiB/s", parts, took)
		}
		if clock.longest > time.Second {
			t.Errorf("%d parts: a wait of %s (the stall timer must not see a limited download as stalled)", parts, clock.longest)
		}
	}

	// No limit: no wait at all.
	fs := newFileServer(t, data)
	clock := &fakeClock{t: time.Unix(1e9, 0)}
	f := newTestFetcher(t)
	f.now, f.sleep = clock.now, clock.sleep
	ensureOK(t, f, testModel(t, fs, data))
	if clock.sleeps != 0 {
		t.Errorf("%d waits without a rate limit", clock.sleeps)
	}
}

// A pause (a retry's backoff, a slow server) earns at most one second of
// credit: the bytes after it are not sent in a burst.
func TestRateLimitCapsCreditAfterAPause(t *testing.T) {
	clock := &fakeClock{t: time.Unix(1e9, 0)}
	r := (&Fetcher{RateLimit: 1000, now: clock.now, sleep: clock.sleep}).newRateLimiter()
	ctx := context.Background()
	r.wait(ctx, 1000) // one second of bytes: wait 1s
	clock.t = clock.t.Add(time.Minute)
	start := clock.now()
	r.wait(ctx, 5000) // five seconds of bytes, one second of credit
	if got := clock.now().Sub(start); got != 4*time.Second {
		t.Fatalf("after a one-minute pause 5000 bytes at 1000 B/s waited %s, want 4s", got)
	}
}

// At a few bytes a second each read is at most a quarter second of the
// rate, so each write is one reservation and one short wait, never the
// whole read's minutes at once.
func TestRateLimitAtAFewBytesASecondReadsInSmallPieces(t *testing.T) {
	data := randomData(60, 51)
	fs := newFileServer(t, data)
	clock := &fakeClock{t: time.Unix(1e9, 0)}
	f := newTestFetcher(t)
	f.RateLimit = 3
	f.now, f.sleep = clock.now, clock.sleep
	res := ensureOK(t, f, testModel(t, fs, data))
	wantContent(t, res.Path, data)
	if took := clock.now().Sub(time.Unix(1e9, 0)); took < 19*time.Second || took > 21*time.Second {
		t.Errorf("the limiter's clock moved %s, want 20s for 60 bytes at 3 B/s", took)
	}
	if clock.longest > time.Second {
		t.Errorf("a wait of %s at 3 B/s: a read larger than the bucket", clock.longest)
	}
	if clock.sleeps < 50 {
		t.Errorf("%d waits for 60 one-byte reads", clock.sleeps)
	}
}
