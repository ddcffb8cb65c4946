package watch

import (
	"fmt"
	"sync"
	"time"
)

// maxFiles bounds what one poll looks at.
const maxFiles = 100000

// Poller is the Source of a platform without file events: it compares the
// files below its roots (size, modification time) every interval.
type Poller struct {
	tops     []*top
	clock    Clock
	interval time.Duration
	events   chan string
	errs     chan error
	done     chan struct{}
	once     sync.Once
	wg       sync.WaitGroup
}

type stamp struct {
	size int64
	mod  time.Time
	dir  bool
}

// NewPoller takes the first look at roots and polls every interval on
// clock (nil: the wall clock).
func NewPoller(roots []string, clock Clock, interval time.Duration) (*Poller, error) {
	return newPoller(roots, clock, interval, hooks{})
}

// newPoller is NewPoller with h at its swap points.
func newPoller(roots []string, clock Clock, interval time.Duration, h hooks) (*Poller, error) {
	if clock == nil {
		clock = RealClock{}
	}
	tops, err := openTops(roots, h)
	if err != nil {
		return nil, err
	}
	p := &Poller{tops: tops, clock: clock, interval: interval, events: make(chan string, 64), errs: make(chan error, 8), done: make(chan struct{})}
	first, err := p.scan()
	if err != nil {
		closeTops(tops)
		return nil, err
	}
	p.wg.Add(1)
	go p.run(first)
	return p, nil
}

func (p *Poller) Events() <-chan string { return p.events }
func (p *Poller) Errors() <-chan error  { return p.errs }

// Close stops polling.
func (p *Poller) Close() error {
	p.once.Do(func() {
		close(p.done)
		p.wg.Wait()
		closeTops(p.tops)
	})
	return nil
}

func (p *Poller) run(prev map[string]stamp) {
	defer p.wg.Done()
	defer close(p.events)
	for {
		select {
		case <-p.done:
			return
		case <-p.clock.After(p.interval):
		}
		cur, err := p.scan()
		if err != nil {
			select {
			case p.errs <- err:
			default:
			}
			continue
		}
		for _, path := range changes(prev, cur) {
			select {
			case p.events <- path:
			case <-p.done:
				return
			}
		}
		prev = cur
	}
}

// changes lists the paths added, removed or changed between two scans.
func changes(prev, cur map[string]stamp) []string {
	var out []string
	for path, s := range cur {
		if old, ok := prev[path]; !ok || (!s.dir && (old.size != s.size || !old.mod.Equal(s.mod))) {
			out = append(out, path)
		}
	}
	for path := range prev {
		if _, ok := cur[path]; !ok {
			out = append(out, path)
		}
	}
	return out
}

// scan stamps every directory and file below the roots, listed and
// looked at through the roots (walkTree): nothing outside is listed.
func (p *Poller) scan() (map[string]stamp, error) {
	out := map[string]stamp{}
	dirs := 0
	for _, t := range p.tops {
		err := walkTree(t, ".", func(d walked) error {
			out[d.path] = stamp{dir: true}
			if dirs++; dirs > maxDirs {
				return fmt.Errorf("more than %d directories below %s: name the story directories to watch", maxDirs, t.dir)
			}
			return nil
		}, func(path, rel string) error {
			info, err := t.root.Lstat(rel)
			if err != nil || info.IsDir() {
				return nil // vanished, or swapped since the listing
			}
			out[path] = stamp{size: info.Size(), mod: info.ModTime()}
			if len(out) > maxFiles {
				return errTooMany
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

var errTooMany = fmt.Errorf("more than %d files to poll: name the story directories to watch", maxFiles)
