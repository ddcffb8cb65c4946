package watch

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"

	"kitsoki/internal/safefile"
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
// platform has none, it polls every interval on clock instead. The trees
// are listed through a root of each (safefile.WalkRoot), and a directory
// is watched only while a look through that root finds at its path the
// directory the walk listed: one swapped for a symbolic link leading out
// is not watched, and no change is told under a directory that is no
// longer the one walked.
func Open(roots []string, clock Clock, interval time.Duration) (Source, error) {
	return open(roots, clock, interval, maxDirs, hooks{})
}

// hooks run at the points a test swaps a directory for a link; the
// product sets none.
type hooks struct {
	// listing runs as a walk has looked at the directory path and is
	// about to list it.
	listing func(path string)
	// beforeAdd runs before a walked directory's watch is added.
	beforeAdd func(path string)
}

// open is Open watching at most most directories (tests lower it), with
// h at its swap points.
func open(roots []string, clock Clock, interval time.Duration, most int, h hooks) (Source, error) {
	tops, err := openTops(roots, h)
	if err != nil {
		return nil, err
	}
	var dirs []walked
	for _, t := range tops {
		if dirs, err = walkDirs(t, ".", dirs, most); err != nil {
			closeTops(tops)
			return nil, err
		}
	}
	w, err := fsnotify.NewWatcher()
	if err != nil {
		closeTops(tops)
		if errors.Is(err, errors.ErrUnsupported) {
			return newPoller(roots, clock, interval, h)
		}
		return nil, fmt.Errorf("watching files: %v", err)
	}
	n := &notifier{w: w, most: most, tops: tops, dirs: map[string]walked{}, events: make(chan string, 64), errs: make(chan error, 8), done: make(chan struct{})}
	for _, d := range dirs {
		if err := n.add(d); err != nil {
			n.Close()
			return nil, fmt.Errorf("watching %s: %v (too many directories? name fewer paths)", d.path, err)
		}
	}
	n.wg.Add(1)
	go n.forward()
	return n, nil
}

// top is a watched root, open: its tree is listed and looked at through it.
type top struct {
	dir   string // absolute
	root  *os.Root
	hooks hooks
}

// walked is a directory a walk listed: its path, where it lies in its
// top, and what the walk found there.
type walked struct {
	path string
	top  *top
	rel  string
	info fs.FileInfo
}

// same reports whether the path of d, looked at through its top with no
// link followed, is still the directory the walk listed.
func (d walked) same() bool {
	fi, err := d.top.root.Lstat(d.rel)
	return err == nil && fi.IsDir() && os.SameFile(fi, d.info)
}

// openTops opens each root (a file stands for its directory) by its name:
// the roots are the operator's.
func openTops(roots []string, h hooks) ([]*top, error) {
	var tops []*top
	for _, r := range roots {
		abs, err := filepath.Abs(r)
		if err == nil {
			var fi fs.FileInfo
			if fi, err = os.Stat(abs); err == nil && !fi.IsDir() {
				abs = filepath.Dir(abs)
			}
		}
		var or *os.Root
		if err == nil {
			or, err = safefile.OpenDirRoot(abs)
		}
		if err != nil {
			closeTops(tops)
			return nil, err
		}
		tops = append(tops, &top{dir: abs, root: or, hooks: h})
	}
	return tops, nil
}

func closeTops(tops []*top) {
	for _, t := range tops {
		t.root.Close()
	}
}

// notifier is a Source over fsnotify.
type notifier struct {
	w      *fsnotify.Watcher
	most   int  // directories watched at most (maxDirs)
	full   bool // the error saying most are watched was sent
	tops   []*top
	dirs   map[string]walked // watched, by path (the forwarder's own once it runs)
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
		closeTops(n.tops)
	})
	return err
}

// add watches d by its path, then looks through d's top that the path is
// still the directory walked, and removes the watch when it is not
// (fsnotify follows links and has no way to add through a descriptor): a
// directory swapped for a link between the walk and the add is not
// watched, whatever the link leads to, nor is an error told for it.
func (n *notifier) add(d walked) error {
	if _, ok := n.dirs[d.path]; ok {
		return nil
	}
	if h := d.top.hooks.beforeAdd; h != nil {
		h(d.path)
	}
	err := n.w.Add(d.path)
	if !d.same() {
		if err == nil {
			_ = n.w.Remove(d.path)
		}
		return nil
	}
	if err == nil {
		n.dirs[d.path] = d
	}
	return err
}

// confirmed reports whether a change named name may be told: name is a
// directory watched, or lies in one whose path is still, looked at
// through its top, the directory walked. A watch on a directory that is
// no longer that one is removed.
func (n *notifier) confirmed(name string) bool {
	if _, ok := n.dirs[name]; ok {
		return true
	}
	parent := filepath.Dir(name)
	d, ok := n.dirs[parent]
	if !ok {
		return false
	}
	if !d.same() {
		_ = n.w.Remove(parent)
		delete(n.dirs, parent)
		return false
	}
	return true
}

// forward passes on changes (a chmod alone is none) under the directories
// confirmed to be those walked, and watches each new directory as it
// appears.
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
			name := filepath.Clean(ev.Name)
			if ev.Op == fsnotify.Chmod || !n.confirmed(name) {
				continue
			}
			if ev.Has(fsnotify.Create) {
				n.addDirs(name)
			}
			if ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename) {
				delete(n.dirs, name) // fsnotify drops its watch
			}
			select {
			case n.events <- name:
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

// addDirs watches the directories below a new path, listed through the
// top its confirmed parent lies in, while fewer than most are watched (a
// directory removed is no longer watched, so a tree whose directories come
// and go stays watched): a tool making directories below a root without
// end used to add a watch for each, past maxDirs. The first directory left
// unwatched is reported once, as an error.
func (n *notifier) addDirs(path string) {
	parent, ok := n.dirs[filepath.Dir(path)]
	if !ok {
		return
	}
	dirs, err := walkDirs(parent.top, filepath.Join(parent.rel, filepath.Base(path)), nil, n.most)
	if err != nil {
		return // gone already, not a directory, or a tree over the cap by itself
	}
	for _, d := range dirs {
		if len(n.w.WatchList()) >= n.most {
			n.tellFull(d.path)
			return
		}
		_ = n.add(d)
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

// walkDirs appends to out the directory rel of t and every directory
// below it, listed through t's root, leaving out what no story reads;
// more than most in all is an error.
func walkDirs(t *top, rel string, out []walked, most int) ([]walked, error) {
	err := walkTree(t, rel, func(d walked) error {
		if out = append(out, d); len(out) > most {
			return fmt.Errorf("more than %d directories below %s: name the story directories to watch", most, t.dir)
		}
		return nil
	}, nil)
	return out, err
}

// errNotDir is a path walked that is not a directory (a new file).
var errNotDir = errors.New("not a directory")

// walkTree calls onDir for the directory rel of t and every directory
// below it, and onFile (when set) for every other entry, all listed
// through t's root (safefile.WalkRoot): a directory swapped for a link
// while it is walked is not listed, whatever the link leads to. A
// directory that cannot be read is passed over; .git, node_modules and
// .kitsoki/sessions are left out.
func walkTree(t *top, rel string, onDir func(walked) error, onFile func(path, rel string) error) error {
	fi, err := t.root.Lstat(rel)
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return errNotDir
	}
	if err := onDir(walked{path: filepath.Join(t.dir, rel), top: t, rel: rel, info: fi}); err != nil {
		return err
	}
	return safefile.WalkRoot(t.root, rel, func(child string, d fs.DirEntry, err error) error {
		p := filepath.Join(t.dir, child)
		switch {
		case err != nil:
			return nil // a directory that cannot be read
		case !d.IsDir():
			if onFile != nil {
				return onFile(p, child)
			}
			return nil
		case skipDir(p):
			return fs.SkipDir
		}
		fi, err := t.root.Lstat(child)
		if err != nil || !fi.IsDir() {
			return fs.SkipDir // swapped since the listing
		}
		if h := t.hooks.listing; h != nil {
			h(p)
		}
		return onDir(walked{path: p, top: t, rel: child, info: fi})
	})
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
