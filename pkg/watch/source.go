package watch

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"
)

// Source delivers the paths of changed files (absolute, cleaned) until it
// is closed.
type Source interface {
	Events() <-chan string
	Errors() <-chan error
	Close() error
}

// maxDirs bounds the directories one watch takes on: a path naming a huge
// tree is an error that says so, not an exhausted inotify table.
const maxDirs = 10000

// Open watches every directory below roots (their .git, node_modules and
// .kitsoki/sessions left out) with the platform's file events; where the
// platform has none, it polls every interval on clock instead.
func Open(roots []string, clock Clock, interval time.Duration) (Source, error) {
	return open(roots, clock, interval, maxDirs)
}

// open is Open watching at most most directories (tests lower it).
func open(roots []string, clock Clock, interval time.Duration, most int) (Source, error) {
	dirs, err := walkDirs(roots, most)
	if err != nil {
		return nil, err
	}
	w, err := fsnotify.NewWatcher()
	if err != nil {
		if errors.Is(err, errors.ErrUnsupported) {
			return NewPoller(roots, clock, interval)
		}
		return nil, fmt.Errorf("watching files: %v", err)
	}
	n := &notifier{w: w, most: most, events: make(chan string, 64), errs: make(chan error, 8), done: make(chan struct{})}
	for _, d := range dirs {
		if err := w.Add(d); err != nil {
			w.Close()
			return nil, fmt.Errorf("watching %s: %v (too many directories? name fewer paths)", d, err)
		}
	}
	n.wg.Add(1)
	go n.forward()
	return n, nil
}

// notifier is a Source over fsnotify.
type notifier struct {
	w      *fsnotify.Watcher
	most   int  // directories watched at most (maxDirs)
	full   bool // the error saying most are watched was sent
	events chan string
	errs   chan error
	done   chan struct{}
	once   sync.Once
	wg     sync.WaitGroup
}

func (n *notifier) Events() <-chan string { return n.events }
func (n *notifier) Errors() <-chan error  { return n.errs }

// Close stops the watch; the events channel is closed once the forwarder
// is gone.
func (n *notifier) Close() error {
	var err error
	n.once.Do(func() {
		close(n.done)
		err = n.w.Close()
		n.wg.Wait()
	})
	return err
}

// forward passes on changes (a chmod alone is none) and watches each new
// directory as it appears.
func (n *notifier) forward() {
	defer n.wg.Done()
	defer close(n.events)
	for {
		select {
		case <-n.done:
			return
		case ev, ok := <-n.w.Events:
			if !ok {
				return
			}
			if ev.Op == fsnotify.Chmod {
				continue
			}
			if ev.Has(fsnotify.Create) {
				n.addDirs(ev.Name)
			}
			select {
			case n.events <- filepath.Clean(ev.Name):
			case <-n.done:
				return
			}
		case err, ok := <-n.w.Errors:
			if !ok {
				return
			}
			select {
			case n.errs <- err:
			default: // a flood of errors is not worth blocking for
			}
		}
	}
}

// addDirs watches the directories below a new path while fewer than most
// are watched (a directory removed is no longer watched, so a tree whose
// directories come and go stays watched): a tool making directories below
// a root without end used to add a watch for each, past maxDirs. The first
// directory left unwatched is reported once, as an error.
func (n *notifier) addDirs(path string) {
	dirs, err := walkDirs([]string{path}, n.most)
	if err != nil {
		return // gone already, or a tree over the cap by itself
	}
	for _, d := range dirs {
		if len(n.w.WatchList()) >= n.most {
			n.tellFull(d)
			return
		}
		_ = n.w.Add(d)
	}
}

// tellFull sends, once, the error saying dir is not watched.
func (n *notifier) tellFull(dir string) {
	if n.full {
		return
	}
	n.full = true
	select {
	case n.errs <- fmt.Errorf("%d directories are watched, the most kitsoki watches: %s and the directories made after it are not; name the story directories to watch", n.most, dir):
	default:
	}
}

// walkDirs lists every directory below roots (a root that is a file
// stands for its directory), skipping what no story reads.
func walkDirs(roots []string, most int) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	for _, r := range roots {
		abs, err := filepath.Abs(r)
		if err != nil {
			return nil, err
		}
		err = filepath.WalkDir(abs, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				if p == abs {
					return err
				}
				return nil // a directory that vanished or cannot be read
			}
			if !d.IsDir() {
				if p == abs {
					p = filepath.Dir(p)
				} else {
					return nil
				}
			} else if p != abs && skipDir(p) {
				return fs.SkipDir
			}
			if !seen[p] {
				seen[p] = true
				out = append(out, p)
			}
			if len(out) > most {
				return fmt.Errorf("more than %d directories below %s: name the story directories to watch", most, r)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// skipDir leaves out version control, dependencies and run traces.
func skipDir(p string) bool {
	switch filepath.Base(p) {
	case ".git", "node_modules":
		return true
	case "sessions":
		return filepath.Base(filepath.Dir(p)) == ".kitsoki"
	}
	return false
}
