package watch

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// maxFiles bounds what one poll looks at.
const maxFiles = 100000

// Poller is the Source of a platform without file events: it compares the
// files below its roots (size, modification time) every interval.
type Poller struct {
	roots    []string
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
	if clock == nil {
		clock = RealClock{}
	}
	p := &Poller{roots: roots, clock: clock, interval: interval, events: make(chan string, 64), errs: make(chan error, 8), done: make(chan struct{})}
	first, err := p.scan()
	if err != nil {
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

func (p *Poller) scan() (map[string]stamp, error) {
	dirs, err := walkDirs(p.roots, maxDirs)
	if err != nil {
		return nil, err
	}
	out := map[string]stamp{}
	for _, d := range dirs {
		out[d] = stamp{dir: true}
		entries, err := os.ReadDir(d)
		if err != nil {
			continue
		}
		for _, e := range entries {
			if e.IsDir() {
				continue
			}
			info, err := e.Info()
			if err != nil {
				continue
			}
			out[filepath.Join(d, e.Name())] = stamp{size: info.Size(), mod: info.ModTime()}
			if len(out) > maxFiles {
				return nil, errTooMany
			}
		}
	}
	return out, nil
}

var errTooMany = fmt.Errorf("more than %d files to poll: name the story directories to watch", maxFiles)
