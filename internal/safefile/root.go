package safefile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
)

// ErrOutsideRoot is wrapped by the error for a path that leaves its
// [Root]: an absolute path elsewhere, a "../" climbing out, or a symlink on
// the way whose target is outside (an absolute target under the root is
// followed: relink.go).
var ErrOutsideRoot = errors.New("outside the project root")

// Root is a project root: the one directory every file a story or fixture
// names must lie in, lexically and through every symlink on the way
// (os.Root enforces the second). Reads through it keep ReadFile's rules.
// A Root opens its directory on first use and keeps it open until
// [Root.Close]; it is safe for concurrent use.
type Root struct {
	dir    string
	parent *Root // when set, dir is opened through it (NewRootIn)
	mu     sync.Mutex
	r      *os.Root
	real   string // dir with its links followed, once found (realDir)
}

// NewRoot returns the Root at dir, an absolute directory (made absolute
// and clean here if it is not). Nothing is opened yet.
func NewRoot(dir string) *Root {
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	return &Root{dir: filepath.Clean(dir)}
}

// NewRootIn returns the Root at dir, a directory lexically inside tree,
// whose directory is opened through a root of tree rather than by its
// path: a symbolic link on the way leading out of tree, there when the
// Root is made or swapped in later, is [ErrOutsideRoot] for every read
// through it, whatever it leads to. Close closes both.
func NewRootIn(tree, dir string) *Root {
	sub := NewRoot(dir)
	sub.parent = NewRoot(tree)
	return sub
}

// Dir is the root's absolute, clean directory.
func (r *Root) Dir() string { return r.dir }

// Rel is the name of the absolute path p inside the root ("." for the
// root itself), or false when p is not lexically below it.
func (r *Root) Rel(p string) (string, bool) {
	if !filepath.IsAbs(p) {
		return "", false
	}
	rel, err := filepath.Rel(r.dir, filepath.Clean(p))
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return "", false
	}
	return rel, true
}

// Resolve joins name, a path as a story or fixture wrote it, to base (an
// absolute directory) and returns the absolute result when it lies
// lexically inside the root. Symlinks are left to reads through the Root.
func (r *Root) Resolve(base, name string) (string, error) {
	p := name
	if !filepath.IsAbs(p) {
		p = filepath.Join(base, p)
	}
	p = filepath.Clean(p)
	if _, ok := r.Rel(p); !ok {
		return p, r.outside(name)
	}
	return p, nil
}

func (r *Root) outside(name string) error {
	return &os.PathError{Op: "resolve", Path: name, Err: ErrOutsideRoot}
}

func (r *Root) open() (*os.Root, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.r == nil {
		var or *os.Root
		var err error
		if r.parent != nil {
			or, err = r.parent.OpenRoot(r.dir)
			r.parent.Close() // reopened if this root is, after a Close
		} else {
			or, err = OpenDirRoot(r.dir)
		}
		if err != nil {
			return nil, err
		}
		r.r = or
	}
	return r.r, nil
}

// realDir is the root's directory with its symbolic links followed, found
// on first use and kept; Dir while they cannot be followed.
func (r *Root) realDir() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.real == "" {
		real, err := filepath.EvalSymlinks(r.dir)
		if err != nil {
			return r.dir
		}
		r.real = real
	}
	return r.real
}

// Close closes the root's directory, if it is open; a later use opens it
// again. A read under way keeps its own descriptor.
func (r *Root) Close() error {
	if r.parent != nil {
		r.parent.Close()
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.r == nil {
		return nil
	}
	err := r.r.Close()
	r.r = nil
	return err
}

// Stat is os.Stat of the absolute path p through the root: p lexically
// outside it, or a symlink on the way leading out, is [ErrOutsideRoot].
func (r *Root) Stat(p string) (fs.FileInfo, error) {
	var fi fs.FileInfo
	err := r.do(p, func(or *os.Root, rel string) (err error) {
		fi, err = or.Stat(rel)
		return err
	})
	return fi, err
}

// Lstat is os.Lstat of the absolute path p through the root: the last
// name is not followed; a path leaving the root, or a symlink on the way
// to the last name leading out, is [ErrOutsideRoot].
func (r *Root) Lstat(p string) (fs.FileInfo, error) {
	var fi fs.FileInfo
	err := r.do(p, func(or *os.Root, rel string) (err error) {
		fi, err = or.Lstat(rel)
		return err
	})
	return fi, err
}

// ReadFile is [ReadFile] of the absolute path p through the root
// ([ErrOutsideRoot] for a path leaving it; nothing outside is opened).
func (r *Root) ReadFile(p string, limit int64) ([]byte, error) {
	var b []byte
	err := r.do(p, func(or *os.Root, rel string) (err error) {
		b, err = ReadRootFile(or, rel, limit)
		return err
	})
	return b, err
}

// Open is [Open] of the absolute path p through the root
// ([ErrOutsideRoot] for a path leaving it; nothing outside is opened).
func (r *Root) Open(p string, limit int64) (*os.File, error) {
	var f *os.File
	err := r.do(p, func(or *os.Root, rel string) (err error) {
		f, err = OpenRootFile(or, rel, limit)
		return err
	})
	return f, err
}

// do runs op on p's name inside the open root, p lexically inside it,
// and words its error (classify).
func (r *Root) do(p string, op func(or *os.Root, rel string) error) error {
	rel, ok := r.Rel(p)
	if !ok {
		return r.outside(p)
	}
	or, err := r.open()
	if err != nil {
		return err
	}
	err = op(or, rel)
	if IsEscape(err) { // an absolute link inside the root is read; relinked names any other
		err = r.retryRelinked(or, rel, op)
	}
	return r.classify(p, err)
}

// Inside reports whether the absolute path p is inside the root, both
// lexically and through every symlink on the way. A path that does not
// exist yet is inside when it is lexically below the root and no symlink
// of the part that exists leads out.
func (r *Root) Inside(p string) bool {
	_, err := r.Stat(p)
	return err == nil || (errors.Is(err, fs.ErrNotExist) && !errors.Is(err, ErrOutsideRoot))
}

// LeadsOut reports whether p (absolute, or relative to the working
// directory) lies inside the root as written and a symbolic link on the
// way leads out of it, whether that link's target exists or not. A path
// outside the root as written does not lead out: it was never inside.
func (r *Root) LeadsOut(p string) bool {
	abs, err := filepath.Abs(p)
	if err != nil {
		return false
	}
	if _, in := r.Rel(abs); !in {
		return false
	}
	_, err = r.Stat(abs)
	return errors.Is(err, ErrOutsideRoot)
}

// Inside is [Root.Inside] for a root used once: dir is opened for the
// question and closed after it.
func Inside(dir, p string) bool {
	r := NewRoot(dir)
	defer r.Close()
	return r.Inside(p)
}

// escapes is os.Root's unexported error text for a name or symlink
// leaving the root (root_test.go holds it to that).
const escapes = "path escapes from parent"

// IsEscape reports whether err is (or wraps) os.Root's refusal of a name
// or symlink that leaves the root: an open's, a rename's (*os.LinkError),
// or one os.Root.MkdirAll nests in its own *fs.PathError.
func IsEscape(err error) bool {
	for e := err; e != nil; e = errors.Unwrap(e) {
		if e.Error() == escapes {
			return true
		}
	}
	return false
}

// classify turns os.Root's escape error into [ErrOutsideRoot], naming p
// (the path as the caller knows it), never where a symlink leads.
func (r *Root) classify(p string, err error) error {
	if err == nil {
		return nil
	}
	if lo, ok := errors.AsType[*errLinkOut](err); ok {
		return &os.PathError{Op: "read", Path: p, Err: lo}
	}
	if IsEscape(err) { // a link swapped in after relinked read the tree
		return &os.PathError{Op: "read", Path: p, Err: fmt.Errorf("%w: a symlink on the way leads out of it", ErrOutsideRoot)}
	}
	if pe, ok := errors.AsType[*fs.PathError](err); ok { // named as the caller does
		return &os.PathError{Op: PlainOp(pe.Op), Path: p, Err: pe.Err}
	}
	return err
}

// PlainOp is os.Root's name for an operation ("statat", "openat") as os
// names it for a path ("stat", "open"), for an error that names the path.
func PlainOp(op string) string {
	switch op {
	case "statat", "openat", "lstatat", "readlinkat", "mkdirat", "renameat", "removeat", "unlinkat":
		return strings.TrimSuffix(op, "at")
	}
	return op
}

// OpenRoot opens the directory at the absolute path p through the root as
// a root of its own ([OpenSubRoot]): a path leaving the root, or a symlink
// on the way leading out, is [ErrOutsideRoot] whether its target exists
// or not; an absolute link inside the root is followed, as for reads.
func (r *Root) OpenRoot(p string) (*os.Root, error) {
	var sub *os.Root
	err := r.do(p, func(or *os.Root, rel string) (err error) {
		sub, err = OpenSubRoot(or, rel)
		return err
	})
	return sub, err
}

// ReadDir lists the directory at the absolute path p through the root,
// sorted by name ([ErrOutsideRoot] for a path leaving it). At most limit+1
// entries are read (limit <= 0: all), so the caller can tell a cut list.
func (r *Root) ReadDir(p string, limit int) ([]fs.DirEntry, error) {
	var out []fs.DirEntry
	err := r.do(p, func(or *os.Root, rel string) error {
		f, err := OpenRootDir(or, rel)
		if err != nil {
			return err
		}
		defer f.Close()
		if limit <= 0 {
			out, err = f.ReadDir(-1)
		} else {
			out, err = f.ReadDir(limit + 1)
			if errors.Is(err, io.EOF) {
				err = nil
			}
		}
		return err
	})
	slices.SortFunc(out, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return out, err
}

// OpenRootDir opens the directory name inside root for listing. What is
// not a directory is refused unopened (a FIFO's open waits for a writer),
// wrapping syscall.ENOTDIR, and, when the name was swapped meanwhile,
// closed unread.
func OpenRootDir(root *os.Root, name string) (*os.File, error) {
	fi, err := root.Stat(name)
	if err == nil && !fi.IsDir() {
		err = notDir("readdir", name, fi)
	}
	if err != nil {
		return nil, err
	}
	f, err := OpenRootNoBlock(root, name)
	if err != nil {
		return nil, err
	}
	if fi, err = f.Stat(); err == nil && !fi.IsDir() {
		err = notDir("readdir", name, fi)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// OpenRootNoBlock opens name inside root for reading without waiting: a
// FIFO swapped in after the caller's stat opens at once instead of
// waiting for a writer (O_NONBLOCK), and a terminal never becomes the
// process's controlling one. The caller checks what it opened (f.Stat)
// before reading it.
func OpenRootNoBlock(root *os.Root, name string) (*os.File, error) {
	return root.OpenFile(name, os.O_RDONLY|nonBlockFlag|noTTYFlag, 0)
}

func notDir(op, path string, fi fs.FileInfo) error {
	return &os.PathError{Op: op, Path: path, Err: fmt.Errorf("%w (%s): point it at a directory", syscall.ENOTDIR, kind(fi.Mode()))}
}
