package host

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"kitsoki/internal/atomicfile"
	"kitsoki/internal/safefile"
)

// A file built-in opens the directory it is confined to (the run's
// working directory, or the operator's artifacts or tickets root) once
// per call as an os.Root, and touches every file through it: confine
// checks a path and words upstream's refusal of one that leaves, and the
// root keeps the open, stat, mkdir, read and rename that follow inside,
// even when a process running beside the story (a host.local go test, a
// job, a hook) swaps a directory on the way for a symbolic link after the
// check. Without the root, the check and the use are two looks at a path
// that can change between them.

// errLinkOut is a file operation os.Root refused because a symbolic link
// on the way leads out of the directory (or is absolute): one that
// appeared after the path was checked.
var errLinkOut = fmt.Errorf("a symbolic link on the way leads out of the directory or is absolute (%w); make the link relative and inside it, or name another path", errOutside)

// fileRoot is a confined base directory open for one call.
type fileRoot struct {
	dir string   // absolute and clean: the base paths are confined to
	r   *os.Root // dir, opened; nil when it does not exist (nothing there)
	// checked, when set (tests), runs with each path confine accepts,
	// before it is used, and with each path about to be written: the
	// moments a process beside the story could swap a directory on its
	// way for a link.
	checked func(abs string)
	// opening, when set (tests), runs between OpenRegular's stat and its
	// open: the moment a FIFO swapped in would make a blocking open wait.
	opening func(abs string)
}

// openFileRoot opens dir (absolute), making it first when it is missing
// (the working directory a run names, or the operator's root: trusted
// paths, made as the built-ins always made them).
func openFileRoot(dir string, checked func(string)) (*fileRoot, error) {
	dir = filepath.Clean(dir)
	r, err := safefile.OpenDirRoot(dir)
	if errors.Is(err, fs.ErrNotExist) {
		if err = os.MkdirAll(dir, 0o755); err == nil {
			r, err = safefile.OpenDirRoot(dir)
		}
	}
	if err != nil {
		return nil, err
	}
	return &fileRoot{dir: dir, r: r, checked: checked}, nil
}

// readFileRoot opens dir (absolute) for reading and writing what exists
// under it: a dir that does not exist is a root holding nothing, every
// file in it missing.
func readFileRoot(dir string, checked func(string)) (*fileRoot, error) {
	dir = filepath.Clean(dir)
	r, err := safefile.OpenDirRoot(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return &fileRoot{dir: dir, checked: checked}, nil
	}
	if err != nil {
		return nil, err
	}
	return &fileRoot{dir: dir, r: r, checked: checked}, nil
}

// Close closes the root.
func (f *fileRoot) Close() error {
	if f.r == nil {
		return nil
	}
	return f.r.Close()
}

// missing is what an operation on abs finds in a root that does not exist.
func (f *fileRoot) missing(op, abs string) error {
	return &fs.PathError{Op: op, Path: abs, Err: fs.ErrNotExist}
}

// confine is [confine] against the root's directory, then the test hook.
func (f *fileRoot) confine(handler, label, p string) (string, error) {
	return f.confineIn(handler, label, f.dir, p)
}

// confineIn is [confine] against base, a directory inside the root: p
// stays lexically inside base (cleaned as text, as upstream joins it),
// and a symbolic link on its way may lead anywhere inside the root, as
// upstream follows it (conformance file-link-inside-workdir).
func (f *fileRoot) confineIn(handler, label, base, p string) (string, error) {
	if strings.ContainsRune(p, 0) {
		return confine(handler, label, base, p)
	}
	lex := p
	if !filepath.IsAbs(lex) {
		lex = filepath.Join(base, p)
	}
	return f.confineAt(handler, label, base, p, lex)
}

// confineWritten is [fileRoot.confine] of a path upstream hands to the
// system as written (append_to_file's and a ticket comment's thread,
// artifacts_dir's src_path): a
// ".." after a link to a directory climbs from where that link leads
// (conformance file-thread-dotdot-link), and one that climbs out of the
// root is refused. A ".." after a directory that does not exist is the
// system's error, wrapping fs.ErrNotExist.
func (f *fileRoot) confineWritten(handler, label, p string) (string, error) {
	if strings.ContainsRune(p, 0) || filepath.IsAbs(p) || f.r == nil {
		return f.confine(handler, label, p)
	}
	parts := splitName(p)
	if !slices.Contains(parts, "..") {
		return f.confine(handler, label, p)
	}
	if lex := filepath.Join(f.dir, p); !safefile.Within(f.dir, lex) {
		return confine(handler, label, f.dir, p) // worded as any path climbing out
	}
	walked, err := f.walk(parts, filepath.Join(f.dir, p))
	switch {
	case errors.Is(err, errLinkOut):
		return "", f.leadsOut(handler, label, p)
	case err != nil:
		return "", err
	}
	return f.confineAt(handler, label, f.dir, p, walked)
}

// leadsOut is the refusal of p, whose links lead out of the root.
func (f *fileRoot) leadsOut(handler, label, p string) error {
	return fmt.Errorf("%s: %s %q leads outside %s through a symbolic link (%w); name a path whose links stay inside it", handler, label, p, f.dir, errOutside)
}

// confineAt checks abs, the path p names (absolute), lexically inside
// base and its links inside the root; then the test hook.
func (f *fileRoot) confineAt(handler, label, base, p, abs string) (string, error) {
	if !safefile.Within(base, filepath.Clean(abs)) {
		return "", fmt.Errorf("%s: %s %q resolves outside %s (%w); use a path inside it", handler, label, p, base, errOutside)
	}
	abs, err := confine(handler, label, f.dir, abs)
	if err != nil {
		if errors.Is(err, errOutside) {
			err = f.leadsOut(handler, label, p)
		}
		return "", err
	}
	if f.checked != nil {
		f.checked(abs)
	}
	return abs, nil
}

// name is abs (inside the root) as a name relative to it.
func (f *fileRoot) name(abs string) string {
	rel, err := filepath.Rel(f.dir, abs)
	if err != nil || !safefile.Within(f.dir, abs) {
		return abs // os.Root refuses it
	}
	return rel
}

// fail words an error of the root's as os words the same operation on
// abs: the operation's plain name ("stat", not "statat") and the
// absolute path, so the built-ins' texts are what they were without the
// root; os.Root's refusal of a link leading out is [errLinkOut].
func (f *fileRoot) fail(err error, abs string) error {
	if err == nil {
		return nil
	}
	op := "open"
	if pe, ok := errors.AsType[*fs.PathError](err); ok {
		op = safefile.PlainOp(pe.Op)
		if safefile.IsEscape(pe.Err) {
			return &fs.PathError{Op: op, Path: abs, Err: errLinkOut}
		}
		p := pe.Path
		if !filepath.IsAbs(p) {
			p = filepath.Join(f.dir, p)
		}
		return &fs.PathError{Op: op, Path: p, Err: pe.Err}
	}
	if safefile.IsEscape(err) {
		return &fs.PathError{Op: op, Path: abs, Err: errLinkOut}
	}
	return err
}

// wrapText is an error worded by text that wraps err (whose own text
// the wording already holds).
type wrapText struct {
	text string
	err  error
}

func (w wrapText) Error() string { return w.text }
func (w wrapText) Unwrap() error { return w.err }

// Stat is os.Stat of abs through the root.
func (f *fileRoot) Stat(abs string) (fs.FileInfo, error) {
	if f.r == nil {
		return nil, f.missing("stat", abs)
	}
	fi, err := f.r.Stat(f.name(abs))
	return fi, f.fail(err, abs)
}

// Lstat is os.Lstat of abs through the root.
func (f *fileRoot) Lstat(abs string) (fs.FileInfo, error) {
	if f.r == nil {
		return nil, f.missing("lstat", abs)
	}
	fi, err := f.r.Lstat(f.name(abs))
	return fi, f.fail(err, abs)
}

// MkdirAllWritten makes abs as MkdirAll does, but walks written (abs as
// the story gave it, relative to f's directory) one name at a time as the
// system does: a ".." after a symbolic link climbs from the link's target,
// not from the link, as upstream's os.MkdirAll of the path as written
// (conformance artifacts-root-dotdot). A written path that is already
// clean, or absolute, is abs.
func (f *fileRoot) MkdirAllWritten(abs, written string) error {
	if f.r == nil || written == "" || filepath.IsAbs(written) || filepath.Clean(written) == written {
		return f.MkdirAll(abs)
	}
	if f.checked != nil {
		f.checked(abs)
	}
	return f.fail(f.r.MkdirAll(written, 0o755), abs)
}

// MkdirAll is os.MkdirAll of abs through the root, its errors as
// os.MkdirAll's: the first component that is not a directory named.
func (f *fileRoot) MkdirAll(abs string) error {
	name := f.name(abs)
	if name == "." {
		return nil
	}
	if f.r == nil {
		return f.missing("mkdir", abs) // readFileRoot makes nothing
	}
	fi, err := f.r.Stat(name)
	switch {
	case err == nil && fi.IsDir():
		return nil
	case err == nil:
		return &fs.PathError{Op: "mkdir", Path: abs, Err: syscall.ENOTDIR}
	case safefile.IsEscape(err):
		return f.fail(err, abs)
	}
	if err := f.MkdirAll(filepath.Dir(abs)); err != nil {
		return err
	}
	if err := f.r.Mkdir(name, 0o755); err != nil {
		if fi, lerr := f.r.Lstat(name); lerr == nil && fi.IsDir() {
			return nil
		}
		return f.fail(err, abs)
	}
	return nil
}

// ReadFile is safefile.ReadFile of abs through the root.
func (f *fileRoot) ReadFile(abs string, limit int64) ([]byte, error) {
	if f.r == nil {
		return nil, f.missing("open", abs)
	}
	b, err := safefile.ReadRootFile(f.r, f.name(abs), limit)
	return b, f.fail(err, abs)
}

// ReadDir lists the directory abs through the root, sorted by name (as
// os.ReadDir).
func (f *fileRoot) ReadDir(abs string) ([]fs.DirEntry, error) {
	if f.r == nil {
		return nil, f.missing("open", abs)
	}
	d, err := safefile.OpenRootDir(f.r, f.name(abs)) // a FIFO is refused, not opened to wait
	if err != nil {
		return nil, f.fail(err, abs)
	}
	defer d.Close()
	ents, err := d.ReadDir(-1)
	slices.SortFunc(ents, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return ents, f.fail(err, abs)
}

// OpenRegular opens abs for reading through the root when it is a
// regular file: what is not (a FIFO whose open would wait, a device) is
// refused unopened, and what was opened is checked again. The open does
// not wait (safefile.OpenRootNoBlock): a FIFO swapped in after the stat
// is opened at once and refused by the second check.
func (f *fileRoot) OpenRegular(abs string) (*os.File, fs.FileInfo, error) {
	fi, err := f.Stat(abs)
	if err != nil {
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fi, nil
	}
	if f.opening != nil {
		f.opening(abs)
	}
	in, err := safefile.OpenRootNoBlock(f.r, f.name(abs))
	if err != nil {
		return nil, nil, f.fail(err, abs)
	}
	if fi, err = in.Stat(); err != nil || !fi.Mode().IsRegular() {
		in.Close()
		return nil, fi, err
	}
	return in, fi, nil
}

// WriteFile replaces abs whole (atomicfile.WriteIn) through the root.
func (f *fileRoot) WriteFile(abs string, data []byte) error {
	return f.WriteFunc(abs, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// WriteFunc is WriteFile for content produced by write; write's own
// error comes back as it is.
func (f *fileRoot) WriteFunc(abs string, write func(io.Writer) error) error {
	if f.r == nil {
		return errors.New(atomicfile.Cause(f.missing("open", abs)))
	}
	abs, err := f.throughLinks(abs)
	if err != nil {
		return err
	}
	if f.checked != nil {
		f.checked(abs)
	}
	err = atomicfile.WriteFuncIn(f.r, f.name(abs), 0o644, write)
	if err != nil && safefile.IsEscape(err) {
		return errLinkOut
	}
	return err
}

// maxLinkHops bounds the symbolic links [fileRoot.throughLinks] follows
// (the kernel's own limit).
const maxLinkHops = 40

// throughLinks is abs with every symbolic link on its way resolved as
// the system resolves them (link after link, the last one made or not; a
// ".." after a link to a directory climbs from where that link leads),
// so that a write replaces the file a read of abs reads and keeps the
// links, as upstream writes through them (conformance
// file-write-through-link, file-write-through-link-dotdot); a link that
// leads out of the root or is absolute outside it is [errLinkOut].
func (f *fileRoot) throughLinks(abs string) (string, error) {
	to, err := f.walk(splitName(f.name(abs)), abs)
	if err == nil && to == f.dir {
		return "", errLinkOut // the root itself
	}
	return to, err
}

// walk is [fileRoot.throughLinks] of parts, the names of abs relative to
// the root, ".." among them.
func (f *fileRoot) walk(parts []string, abs string) (string, error) {
	done, hops := "", 0
	for i := 0; i < len(parts); i++ {
		if parts[i] == ".." {
			if done == "" {
				return "", errLinkOut
			}
			done = dirName(done)
			continue
		}
		cur := filepath.Join(done, parts[i])
		st, err := f.r.Lstat(cur)
		if err != nil {
			// the rest is made by the write, or fails it as the
			// system fails it; a ".." past a missing directory
			// climbs out of nothing
			if slices.Contains(parts[i+1:], "..") {
				return "", f.fail(err, filepath.Join(f.dir, cur))
			}
			return filepath.Join(append([]string{f.dir, done}, parts[i:]...)...), nil
		}
		if st.Mode()&fs.ModeSymlink == 0 {
			done = cur
			continue
		}
		if hops++; hops > maxLinkHops {
			return "", fmt.Errorf("open %s: too many levels of symbolic links; name the file itself", abs)
		}
		to, err := f.r.Readlink(cur)
		if err != nil {
			return "", f.fail(err, filepath.Join(f.dir, cur))
		}
		if filepath.IsAbs(to) {
			// inside the root as written; what follows its directory is
			// walked as the system walks it
			rest, ok := strings.CutPrefix(to, f.dir+string(filepath.Separator))
			if !ok {
				return "", errLinkOut
			}
			to, done = rest, ""
		}
		parts, i = append(splitName(to), parts[i+1:]...), -1
	}
	return filepath.Join(f.dir, done), nil
}

// splitName is a name relative to a root (or a link's relative target)
// in its parts, without empty and "." ones.
func splitName(name string) []string {
	return slices.DeleteFunc(strings.Split(filepath.ToSlash(name), "/"), func(p string) bool { return p == "" || p == "." })
}

// dirName is the directory holding name (relative to a root), "" for the
// root itself.
func dirName(name string) string {
	if d := filepath.Dir(name); d != "." {
		return d
	}
	return ""
}

// existingSize is the size of the regular file at abs, or 0 when there
// is none (a write there starts from nothing).
func (f *fileRoot) existingSize(abs string) int64 {
	if f.r == nil {
		return 0
	}
	st, err := f.r.Stat(f.name(abs)) // through links, as the write goes
	if err != nil || !st.Mode().IsRegular() {
		return 0
	}
	return st.Size()
}
