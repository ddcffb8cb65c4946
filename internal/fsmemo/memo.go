package fsmemo

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
)

// Memo remembers, for one run, the lookups its methods answer. Safe for
// concurrent use; the zero value is ready; nil answers afresh.
type Memo struct {
	mu     sync.Mutex
	wd     string
	wdErr  error
	wdDone bool
	dirs   map[string]listing // absolute directory -> its listing
	stats  map[string]statHit // absolute path -> what os.Stat said
	real   map[string]realHit // absolute directory -> filepath.EvalSymlinks
	lstats map[string]statHit // absolute path -> what os.Lstat said
}

// hit is one remembered answer of a file system call.
type hit[T any] struct {
	v   T
	err error
}

type (
	listing = hit[[]fs.DirEntry] // sorted by name, as os.ReadDir returns them
	statHit = hit[fs.FileMode]   // the type bits (and permissions) of the file
	realHit = hit[string]
)

// remember returns the answer tab holds for k, else f's, which it keeps.
// f runs without m.mu held.
func remember[T any](m *Memo, tab *map[string]hit[T], k string, f func() (T, error)) (T, error) {
	m.mu.Lock()
	h, ok := (*tab)[k]
	m.mu.Unlock()
	if ok {
		return h.v, h.err
	}
	v, err := f()
	m.mu.Lock()
	if *tab == nil {
		*tab = map[string]hit[T]{}
	}
	(*tab)[k] = hit[T]{v, err}
	m.mu.Unlock()
	return v, err
}

// Getwd is os.Getwd, looked up once.
func (m *Memo) Getwd() (string, error) {
	if m == nil {
		return os.Getwd()
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if !m.wdDone {
		m.wd, m.wdErr = os.Getwd()
		m.wdDone = true
	}
	return m.wd, m.wdErr
}

// Abs is filepath.Abs with the working directory looked up once.
func (m *Memo) Abs(p string) (string, error) {
	if m == nil {
		return filepath.Abs(p)
	}
	if filepath.IsAbs(p) {
		return filepath.Clean(p), nil
	}
	wd, err := m.Getwd()
	if err != nil {
		return "", err
	}
	return filepath.Join(wd, p), nil
}

// key is the absolute form of p under which its answers are kept, or ""
// for a path whose lexical form may not be where the system takes it: a
// path that is not clean, or a relative one climbing out of the working
// directory (whose last component may be a symlink).
func (m *Memo) key(p string) string {
	if p == "" || filepath.Clean(p) != p || (!filepath.IsAbs(p) && (p == ".." || strings.HasPrefix(p, ".."+string(filepath.Separator)))) {
		return ""
	}
	abs, err := m.Abs(p)
	if err != nil {
		return ""
	}
	return abs
}

// ReadDir is os.ReadDir, each directory listed once. The entries are
// shared: callers must not change them.
func (m *Memo) ReadDir(dir string) ([]fs.DirEntry, error) {
	k := ""
	if m != nil {
		k = m.key(dir)
	}
	if k == "" {
		return os.ReadDir(dir)
	}
	return remember(m, &m.dirs, k, func() ([]fs.DirEntry, error) { return os.ReadDir(dir) })
}

// Prune forgets the listings of the directories keep refuses (by absolute
// path): what a run will not look at again need not stay in memory.
func (m *Memo) Prune(keep func(dir string) bool) {
	if m == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	for d := range m.dirs {
		if !keep(d) {
			delete(m.dirs, d)
		}
	}
}

// Stat is os.Stat's answer for p: its mode (type bits and permissions;
// a symlink followed) or the error, each path stat'ed at most once. A
// path in a directory already listed is answered by the listing when its
// entry is not a symlink, and a name it lacks when that name is surely
// missing (surelyMissing: a *fs.PathError holding syscall.ENOENT, as the
// stat's).
func (m *Memo) Stat(p string) (fs.FileMode, error) {
	return m.stat(p, false)
}

// Lstat is Stat without following a final symlink (os.Lstat).
func (m *Memo) Lstat(p string) (fs.FileMode, error) {
	return m.stat(p, true)
}

func (m *Memo) stat(p string, lstat bool) (fs.FileMode, error) {
	sys := os.Stat
	if lstat {
		sys = os.Lstat
	}
	k := ""
	if m != nil {
		k = m.key(p)
	}
	if k == "" {
		fi, err := sys(p)
		if err != nil {
			return 0, err
		}
		return fi.Mode(), nil
	}
	hits := &m.stats
	if lstat {
		hits = &m.lstats
	}
	m.mu.Lock()
	h, ok := (*hits)[k]
	if !ok {
		h, ok = m.fromListing(p, k)
	}
	m.mu.Unlock()
	if ok {
		return h.v, h.err
	}
	fi, err := sys(p)
	h = statHit{err: err}
	if err == nil {
		h.v = fi.Mode()
	}
	m.mu.Lock()
	if *hits == nil {
		*hits = map[string]statHit{}
	}
	(*hits)[k] = h
	m.mu.Unlock()
	return h.v, h.err
}

// fromListing answers a stat of p (absolute form k) from its directory's
// listing, when there is one and p's entry is not a symlink. m.mu is held.
func (m *Memo) fromListing(p, k string) (statHit, bool) {
	dir, name := filepath.Split(k)
	if name == "" {
		return statHit{}, false
	}
	l, ok := m.dirs[filepath.Clean(dir)]
	if !ok || l.err != nil {
		return statHit{}, false
	}
	i, found := slices.BinarySearchFunc(l.v, name, func(e fs.DirEntry, n string) int { return strings.Compare(e.Name(), n) })
	if !found {
		if !surelyMissing(name, l.v) {
			return statHit{}, false
		}
		return statHit{err: &fs.PathError{Op: "stat", Path: p, Err: syscall.ENOENT}}, true
	}
	t := l.v[i].Type()
	if t&fs.ModeSymlink != 0 {
		return statHit{}, false
	}
	return statHit{v: t}, true
}

// surelyMissing reports whether a name absent from a listing is missing
// on any file system: one that folds case (macOS, Windows, a casefold or
// FAT directory on Linux) finds a name that differs from an entry in case
// only, and some normalize Unicode, map short 8.3 names (~) or drop a
// trailing dot. Only a plain ASCII name no entry equals but for case is
// sure; any other is stat'ed.
func surelyMissing(name string, es []fs.DirEntry) bool {
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-') {
			return false
		}
	}
	if strings.HasSuffix(name, ".") {
		return false
	}
	for _, e := range es {
		if strings.EqualFold(e.Name(), name) {
			return false
		}
	}
	return true
}

// EvalSymlinks is filepath.EvalSymlinks for an absolute path, each
// directory above it resolved once per run: the path is its resolved
// directory joined with its name unless the name is itself a symlink
// (resolved afresh). For a path that does not exist the error holds
// syscall.ENOENT (os.IsNotExist), but may name another part of the path
// than filepath.EvalSymlinks would.
func (m *Memo) EvalSymlinks(p string) (string, error) {
	if m == nil || !filepath.IsAbs(p) || filepath.Clean(p) != p {
		return filepath.EvalSymlinks(p)
	}
	return m.eval(p)
}

func (m *Memo) eval(p string) (string, error) {
	dir, name := filepath.Split(p)
	if name == "" { // the root
		return filepath.EvalSymlinks(p)
	}
	dir = filepath.Clean(dir)
	m.mu.Lock()
	h, ok := m.real[p]
	m.mu.Unlock()
	if ok {
		return h.v, h.err
	}
	rd, err := m.evalDir(dir)
	if err != nil {
		return filepath.EvalSymlinks(p) // its own error, exactly
	}
	mode, err := m.Lstat(p)
	switch {
	case err != nil:
		return "", err
	case mode&fs.ModeSymlink != 0:
		return filepath.EvalSymlinks(p)
	}
	return filepath.Join(rd, name), nil
}

// evalDir is eval for a directory, remembered.
func (m *Memo) evalDir(d string) (string, error) {
	return remember(m, &m.real, d, func() (string, error) { return m.eval(d) })
}

// Glob is filepath.Glob, listing a directory through ReadDir when only
// the pattern's last element holds metacharacters (the common
// "dir/*.yaml"); other patterns go to filepath.Glob.
func (m *Memo) Glob(pattern string) ([]string, error) {
	dir, file := filepath.Split(pattern)
	if m == nil || hasMeta(dir) || !hasMeta(file) {
		return filepath.Glob(pattern)
	}
	if _, err := filepath.Match(pattern, ""); err != nil {
		return nil, err
	}
	switch dir {
	case "":
		dir = "."
	case string(filepath.Separator):
	default:
		dir = dir[:len(dir)-1]
	}
	entries, err := m.ReadDir(dir)
	if err != nil {
		return nil, nil // as Glob: an unreadable directory matches nothing
	}
	var out []string
	for _, e := range entries {
		ok, err := filepath.Match(file, e.Name())
		if err != nil {
			return out, err
		}
		if ok {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	return out, nil
}

func hasMeta(p string) bool { return strings.ContainsAny(p, `*?[\`) }
