package trace

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"kitsoki/internal/safefile"
	"kitsoki/internal/termsafe"
)

// Sessions is a sessions directory opened as an os.Root: its traces are
// listed, peeked at and opened through it, so a directory or trace that
// a process beside kitsoki swaps for a symbolic link leading out of it,
// after the listing saw a directory or a regular file there, is refused
// by the read itself and nothing outside is listed, statted or read.
type Sessions struct {
	// Dir is the directory as it was named: the listed paths are under it.
	Dir  string
	root *os.Root // nil: the directory does not exist (no traces)
	// beforeDir, set only by tests, runs before a directory below the top
	// is listed, to swap it.
	beforeDir func(rel string)
}

// OpenSessions opens dir, by its name, as the sessions directory; a
// missing dir is one holding no traces.
func OpenSessions(dir string) (*Sessions, error) {
	r, err := safefile.OpenDirRoot(dir)
	return newSessions(dir, r, err)
}

// LinkOutError is a sessions directory inside the project root that a
// symbolic link on the way leads out of, whether its target exists or not.
type LinkOutError struct {
	Dir  string // the sessions directory as it was named
	Root string // the project root, absolute
}

func (e *LinkOutError) Error() string {
	return e.Dir + ": the sessions directory goes through a symlink leading out of the project root " + e.Root
}

func (e *LinkOutError) Unwrap() error { return safefile.ErrOutsideRoot }

// OpenProjectSessions opens dir as the sessions directory for a command
// run in a project whose root is root ("" when unknown). A dir lying
// inside root as written is opened through root, so a link leading out on
// the way (a checkout's .kitsoki linked to a home directory's), planted
// before the call or swapped in meanwhile, is refused by the open itself
// as a [*LinkOutError]: nothing there is listed or read. A dir outside
// root is the operator's own (named with --sessions-dir) and is opened by
// its name.
func OpenProjectSessions(root, dir string) (*Sessions, error) {
	abs, err := filepath.Abs(dir)
	if root == "" || err != nil {
		return OpenSessions(dir)
	}
	r := safefile.NewRoot(root)
	defer r.Close()
	if _, in := r.Rel(abs); !in {
		return OpenSessions(dir)
	}
	or, err := r.OpenRoot(abs)
	if errors.Is(err, safefile.ErrOutsideRoot) {
		return nil, &LinkOutError{Dir: dir, Root: r.Dir()}
	}
	return newSessions(dir, or, err)
}

func newSessions(dir string, r *os.Root, err error) (*Sessions, error) {
	if errors.Is(err, fs.ErrNotExist) {
		return &Sessions{Dir: dir}, nil
	}
	if err != nil {
		return nil, err
	}
	return &Sessions{Dir: dir, root: r}, nil
}

// Missing reports whether the directory did not exist when it was
// opened: the answer of the open itself, so a caller never looks at the
// path again (a link swapped in since would answer for what lies outside).
func (s *Sessions) Missing() bool { return s.root == nil }

// Close closes the directory.
func (s *Sessions) Close() error {
	if s.root == nil {
		return nil
	}
	return s.root.Close()
}

// lister walks a sessions directory through its root.
type lister struct {
	s    *Sessions
	out  []TraceFile
	deep []string
}

// List returns the *.jsonl traces under the directory, newest first,
// skipping sidecar and dot folders and what is not a regular file or a
// directory (a link is not followed); a directory that vanished, or was
// swapped for anything else, while it was walked is skipped. Too deep or
// too long paths are skipped and told to warn once.
func (s *Sessions) List(warn func(string)) ([]TraceFile, error) {
	if s.root == nil {
		return nil, nil
	}
	l := &lister{s: s}
	if err := l.walk("."); err != nil {
		return nil, fmt.Errorf("list traces under %s: %w", termsafe.ShortPath(s.Dir), err)
	}
	if len(l.deep) > 0 && warn != nil {
		more := ""
		if len(l.deep) > 1 {
			more = fmt.Sprintf(" and %d more", len(l.deep)-1)
		}
		warn(fmt.Sprintf("list traces under %s: skipped %s%s: more than %d directories below it, or a path too long to open; no trace there is listed (pass one by its path)",
			termsafe.ShortPath(s.Dir), termsafe.ShortPath(l.deep[0]), more, MaxSessionsDepth))
	}
	slices.SortStableFunc(l.out, func(a, b TraceFile) int {
		return cmpTrace(a, b)
	})
	return l.out, nil
}

// walk lists the directory rel ("." for the top) and what lies below it.
func (l *lister) walk(rel string) error {
	f, err := safefile.OpenRootDir(l.s.root, rel)
	if err != nil {
		return err
	}
	ents, err := f.ReadDir(-1)
	f.Close()
	if err != nil {
		return err
	}
	slices.SortFunc(ents, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	for _, d := range ents {
		name := d.Name()
		child := filepath.Join(rel, name)
		switch {
		case d.IsDir():
			if name == promptsDir || name == "transcripts" || strings.HasPrefix(name, ".") {
				continue
			}
			if strings.Count(child, string(filepath.Separator)) >= MaxSessionsDepth {
				l.deep = append(l.deep, filepath.Join(l.s.Dir, child))
				continue
			}
			if l.s.beforeDir != nil {
				l.s.beforeDir(child)
			}
			err := l.walk(child)
			switch {
			case errors.Is(err, syscall.ENAMETOOLONG):
				l.deep = append(l.deep, filepath.Join(l.s.Dir, child))
			case err != nil && gone(err):
				// vanished, or swapped for a link or a file, since the listing
			case err != nil:
				if pe, ok := errors.AsType[*fs.PathError](err); ok {
					err = pe.Err // it names the (maybe long) path again
				}
				return fmt.Errorf("%s: %w", termsafe.ShortPath(filepath.Join(l.s.Dir, child)), err)
			}
		case d.Type().IsRegular() && strings.HasSuffix(name, ".jsonl"):
			// Lstat through the root: the entry's own Info stats the
			// path by name, through any link swapped in above it.
			info, err := l.s.root.Lstat(child)
			if err != nil || !info.Mode().IsRegular() {
				continue // vanished or swapped meanwhile
			}
			l.out = append(l.out, TraceFile{Path: filepath.Join(l.s.Dir, child), ID: strings.TrimSuffix(name, ".jsonl"),
				ModTime: info.ModTime(), Size: info.Size(), rel: child})
		}
	}
	return nil
}

// gone says err is a directory's that is no longer one to walk: removed,
// or swapped for a symbolic link leading out, a link loop, a file or a
// FIFO.
func gone(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) || errors.Is(err, syscall.ELOOP) || safefile.IsEscape(err)
}

// PeekAppID is [PeekAppID] of a trace the listing found, read through the
// directory's root ("" when it cannot be read there).
func (s *Sessions) PeekAppID(tf TraceFile) string {
	f, err := s.Open(tf)
	if err != nil {
		return ""
	}
	defer f.Close()
	return peekAppID(f)
}

// Open opens a trace the listing found, through the directory's root: a
// trace (or a directory above it) swapped since for a link leading out
// is [safefile.ErrOutsideRoot]; what is no longer a regular file is
// refused unopened.
func (s *Sessions) Open(tf TraceFile) (*os.File, error) {
	rel := tf.rel
	if rel == "" {
		r, err := filepath.Rel(s.Dir, tf.Path)
		if err != nil {
			return nil, err
		}
		rel = r
	}
	if s.root == nil {
		return nil, &fs.PathError{Op: "open", Path: tf.Path, Err: fs.ErrNotExist}
	}
	f, err := safefile.OpenRootFile(s.root, rel, safefile.Stream)
	if safefile.IsEscape(err) {
		return nil, &fs.PathError{Op: "open", Path: tf.Path, Err: fmt.Errorf("%w: a symlink on the way leads out of the sessions directory", safefile.ErrOutsideRoot)}
	}
	if pe, ok := errors.AsType[*fs.PathError](err); ok {
		return nil, &fs.PathError{Op: safefile.PlainOp(pe.Op), Path: tf.Path, Err: pe.Err}
	}
	return f, err
}
