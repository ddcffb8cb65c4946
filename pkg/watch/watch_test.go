package watch

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// hang is a guard on a broken watch, never a timing assumption.
const hang = time.Minute

// fakeClock's timers fire only when the test says so; made reports each
// timer set.
type fakeClock struct {
	mu     sync.Mutex
	timers []chan time.Time
	made   chan struct{}
}

func newFakeClock() *fakeClock { return &fakeClock{made: make(chan struct{}, 100)} }

func (c *fakeClock) After(time.Duration) <-chan time.Time {
	ch := make(chan time.Time, 1)
	c.mu.Lock()
	c.timers = append(c.timers, ch)
	c.mu.Unlock()
	c.made <- struct{}{}
	return ch
}

func (c *fakeClock) fire(i int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.timers[i] <- time.Time{}
}

func (c *fakeClock) waitTimer(t *testing.T) {
	t.Helper()
	select {
	case <-c.made:
	case <-time.After(hang):
		t.Fatal("no timer was set")
	}
}

// chanSource is a Source the test feeds.
type chanSource struct {
	events chan string
	errs   chan error
}

func (s *chanSource) Events() <-chan string { return s.events }
func (s *chanSource) Errors() <-chan error  { return s.errs }
func (s *chanSource) Close() error          { return nil }

func startLoop(t *testing.T, clock Clock) (*chanSource, chan []string, context.CancelFunc, chan error) {
	t.Helper()
	src := &chanSource{events: make(chan string), errs: make(chan error)}
	runs := make(chan []string, 10)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- Loop(ctx, src, Options{Clock: clock, Quiet: time.Second, Run: func(_ context.Context, b []string) { runs <- b }})
	}()
	t.Cleanup(cancel)
	return src, runs, cancel, done
}

// A burst is one batch, run once the quiet period after its last event
// passes; a timer an event replaced does not run it.
func TestLoopDebouncesBursts(t *testing.T) {
	clock := newFakeClock()
	src, runs, cancel, done := startLoop(t, clock)
	src.events <- "/s/b.yaml"
	clock.waitTimer(t)
	src.events <- "/s/a.yaml"
	clock.waitTimer(t)
	src.events <- "/s/b.yaml"
	clock.waitTimer(t)
	clock.fire(0) // replaced: nothing runs
	clock.fire(2)
	select {
	case b := <-runs:
		if !slices.Equal(b, []string{"/s/a.yaml", "/s/b.yaml"}) {
			t.Fatalf("batch %v", b)
		}
	case <-time.After(hang):
		t.Fatal("the batch never ran")
	}
	src.events <- "/s/c.yaml"
	clock.waitTimer(t)
	clock.fire(3)
	if b := <-runs; !slices.Equal(b, []string{"/s/c.yaml"}) {
		t.Fatalf("second batch %v", b)
	}
	if len(runs) != 0 {
		t.Fatalf("extra runs: %v", <-runs)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// The loop ends when its source closes, and on the context.
func TestLoopEndsWithSource(t *testing.T) {
	src, _, _, done := startLoop(t, newFakeClock())
	close(src.events)
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(hang):
		t.Fatal("the loop did not end")
	}
}

func TestAffected(t *testing.T) {
	targets := []Target{
		{Files: []string{"/p/cloak/flows/a.yaml"}, Dirs: []string{"/p/cloak"}},
		{Files: []string{"/p/robbery/flows/b.yaml"}, Dirs: []string{"/p/robbery", "/p/shared"}},
		{Files: []string{"/elsewhere/c.yaml"}, Dirs: []string{"/p/robbery"}},
	}
	for _, c := range []struct {
		changed []string
		want    []int
	}{
		{[]string{"/p/cloak/app.yaml"}, []int{0}},
		{[]string{"/p/cloak/flows/a.yaml"}, []int{0}},
		{[]string{"/p/robbery/prompts/x.md"}, []int{1, 2}},
		{[]string{"/p/shared/schema.json"}, []int{1}},
		{[]string{"/elsewhere/c.yaml"}, []int{2}},
		{[]string{"/p/cloaked/app.yaml", "/p/other.md"}, nil},
		{[]string{"/p/cloak/../robbery/app.yaml"}, []int{1, 2}},
	} {
		if got := Affected(targets, c.changed); !slices.Equal(got, c.want) {
			t.Errorf("Affected(%v) = %v, want %v", c.changed, got, c.want)
		}
	}
}

// waitPath waits for an event naming want.
func waitPath(t *testing.T, src Source, want string) {
	t.Helper()
	deadline := time.After(hang)
	for {
		select {
		case p, ok := <-src.Events():
			if !ok {
				t.Fatalf("the source closed before %s changed", want)
			}
			if p == want {
				return
			}
		case err := <-src.Errors():
			t.Fatalf("watch error: %v", err)
		case <-deadline:
			t.Fatalf("no event for %s", want)
		}
	}
}

// Real file changes in a temporary tree reach the source: a write, a new
// directory and a file in it, a removal; .git is not watched.
func TestOpenSeesRealChanges(t *testing.T) {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "story", "flows"), 0o755); err != nil {
		t.Fatal(err)
	}
	app := filepath.Join(root, "story", "app.yaml")
	if err := os.WriteFile(app, []byte("id: x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	src, err := Open([]string{root}, RealClock{}, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	if err := os.WriteFile(app, []byte("id: y\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	waitPath(t, src, app)
	dir := filepath.Join(root, "story", "prompts")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	waitPath(t, src, dir)
	prompt := filepath.Join(dir, "p.md")
	if err := os.WriteFile(prompt, []byte("hi"), 0o644); err != nil {
		t.Fatal(err)
	}
	waitPath(t, src, prompt)
	fx := filepath.Join(root, "story", "flows", "a.yaml")
	if err := os.WriteFile(fx, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	waitPath(t, src, fx)
	if err := os.Remove(fx); err != nil {
		t.Fatal(err)
	}
	waitPath(t, src, fx)
	if err := src.Close(); err != nil {
		t.Fatal(err)
	}
	for range src.Events() {
	}
}

// The poller, for platforms without events, sees the same changes when
// its clock ticks.
func TestPollerSeesChanges(t *testing.T) {
	root := t.TempDir()
	f := filepath.Join(root, "app.yaml")
	if err := os.WriteFile(f, []byte("a"), 0o644); err != nil {
		t.Fatal(err)
	}
	clock := newFakeClock()
	p, err := NewPoller([]string{root}, clock, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	clock.waitTimer(t)
	if err := os.WriteFile(f, []byte("ab"), 0o644); err != nil {
		t.Fatal(err)
	}
	clock.fire(0)
	waitPath(t, p, f)
	clock.waitTimer(t)
	g := filepath.Join(root, "new.md")
	if err := os.WriteFile(g, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	clock.fire(1)
	waitPath(t, p, g)
}

// A root that does not exist is an error naming it.
func TestOpenMissingRoot(t *testing.T) {
	if _, err := Open([]string{filepath.Join(t.TempDir(), "nope")}, RealClock{}, time.Second); err == nil {
		t.Fatal("a missing root was watched")
	}
}

// A batch that reaches MaxBatch paths runs at once, without waiting for
// quiet: a tool writing new files below a root faster than the quiet
// period grew the batch for as long as it wrote, and ran nothing.
func TestLoopBatchBounded(t *testing.T) {
	clock := newFakeClock()
	src := &chanSource{events: make(chan string), errs: make(chan error)}
	runs := make(chan []string, 10)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		_ = Loop(ctx, src, Options{Clock: clock, Quiet: time.Second, MaxBatch: 3, Run: func(_ context.Context, b []string) { runs <- b }})
	}()
	for _, p := range []string{"/s/c", "/s/a", "/s/c", "/s/b", "/s/d"} {
		src.events <- p
	}
	select {
	case b := <-runs:
		if !slices.Equal(b, []string{"/s/a", "/s/b", "/s/c"}) {
			t.Fatalf("batch %v; want the first 3 paths", b)
		}
	case <-time.After(hang):
		t.Fatal("a batch of MaxBatch paths waited for quiet (no timer ever fires here)")
	}
}

// New directories below a watched root are watched while fewer than the
// cap are; the first past it is reported once, and its files send nothing
// (a tool making directories without end used to add a watch for each).
func TestOpenWatchesAtMostTheCap(t *testing.T) {
	root := t.TempDir()
	src, err := open([]string{root}, RealClock{}, time.Second, 3, hooks{})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	n := src.(*notifier)
	for i := range 4 {
		d := filepath.Join(root, string(rune('a'+i)))
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	deadline := time.After(hang)
	for {
		select {
		case <-src.Events():
			continue
		case err := <-src.Errors():
			if !strings.Contains(err.Error(), "3 directories are watched") {
				t.Fatalf("error %v; want one naming the cap", err)
			}
		case <-deadline:
			t.Fatal("no error said the cap was reached")
		}
		break
	}
	if got := len(n.w.WatchList()); got > 3 {
		t.Fatalf("%d directories watched; want at most 3", got)
	}
}
