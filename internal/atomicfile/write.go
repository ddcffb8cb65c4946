package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"kitsoki/internal/filelock"
)

// Write replaces path with data (mode perm) through a temporary file in
// the same directory, creating the directory if it is missing. On any
// failure the temporary file is removed and the target is left as it was.
// The error says what failed in plain words, without the path: callers put
// the path (and the flag or key that named it) in front.
//
// A temporary file a killed writer left beside the target (".NAME.tmp-*")
// is removed by the next successful write of the same target; one a live
// writer holds is left alone (stale.go).
func Write(path string, data []byte, perm fs.FileMode) error {
	return WriteFunc(path, perm, writeData(data))
}

func writeData(data []byte) func(io.Writer) error {
	return func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	}
}

// WriteFunc is [Write] for content produced by write as it goes (an
// export streamed into the file). An error of write's own is returned as
// it is, so the caller can tell a failed producer from a failed disk; the
// target is left as it was either way.
//
// A path that names an existing device or pipe (/dev/stdout, a FIFO) is
// written in place: it cannot be replaced, and renaming over it would
// put a regular file where the device was. A FIFO that nothing reads is
// an error at once: the write does not wait for a reader to come. The
// device or pipe must be the path itself, or be reached through a name
// under /dev or /proc (/dev/stdout, /dev/fd/63): a symbolic link elsewhere
// that leads to one (report.json committed to a checkout as a link to
// /dev/sda) is replaced by the new regular file, never written through.
func WriteFunc(path string, perm fs.FileMode, write func(io.Writer) error) error {
	return writeFunc(osFS{}, path, perm, write)
}

// writeFunc is [WriteFunc] through fsys.
func writeFunc(fsys fsys, path string, perm fs.FileMode, write func(io.Writer) error) error {
	if st, err := fsys.Stat(path); err == nil && st.IsDir() {
		return errors.New("is a directory; name a file inside it")
	} else if err == nil && isDevice(st) && inPlace(fsys, path) {
		return writeInPlace(fsys, path, write)
	}
	return replace(fsys, path, perm, write)
}

// isDevice reports whether st is a device or a pipe: what a write cannot
// replace.
func isDevice(st fs.FileInfo) bool {
	return st.Mode()&(fs.ModeDevice|fs.ModeCharDevice|fs.ModeNamedPipe) != 0
}

// inPlace reports whether the device or pipe at path is written in place:
// path is one itself (not a link to one), or is named under /dev or /proc,
// where the system's own links to the process's streams live.
func inPlace(fsys fsys, path string) bool {
	if st, err := fsys.Lstat(path); err == nil && isDevice(st) {
		return true
	}
	if _, ok := fsys.(osFS); !ok {
		return false // a root's names are relative: never a system name
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return false
	}
	for _, sys := range []string{"/dev/", "/proc/"} {
		if strings.HasPrefix(abs, sys) {
			return true
		}
	}
	return false
}

// WriteEntry is [Write] for a file the caller names inside a directory it
// writes into (a report directory's pages), not one the user named: what
// has that name, a symbolic link, a named pipe or a device node that a
// repository planted there included, is replaced by the new regular file
// and never written through (a link to /dev/sda would otherwise be
// written in place, as /dev/stdout is for Write).
func WriteEntry(path string, data []byte, perm fs.FileMode) error {
	if st, err := os.Lstat(path); err == nil && st.IsDir() {
		return errors.New("is a directory; name a file inside it")
	}
	return replace(osFS{}, path, perm, writeData(data))
}

// replace writes path whole through a temporary file renamed over it,
// every step through fsys.
func replace(fsys fsys, path string, perm fs.FileMode, write func(io.Writer) error) error {
	return place(fsys, path, perm, write, renameOver)
}

// renameOver puts the written temporary file in place of whatever has
// the target's name: tmp is gone after it.
func renameOver(fsys fsys, tmp, path string) (tmpLeft bool, err error) {
	return false, fsys.Rename(tmp, path)
}

// place writes path whole through a temporary file in its directory that
// put gives the target's name, every step through fsys.
func place(fsys fsys, path string, perm fs.FileMode, write func(io.Writer) error, put func(fsys fsys, tmp, path string) (tmpLeft bool, err error)) error {
	dir := filepath.Dir(path)
	if err := fsys.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("cannot create its directory: %w", causeError{err})
	}
	f, tmp, err := createTemp(fsys, dir, "."+filepath.Base(path)+".tmp-")
	if err != nil {
		return fmt.Errorf("cannot create a file in %s: %w", dir, causeError{err})
	}
	lockTemp(f)
	if err := write(f); err != nil {
		f.Close()
		fsys.Remove(tmp)
		return err
	}
	werr := f.Sync()
	if werr == nil {
		werr = f.Chmod(perm) // the open file's, not whatever has its name by now
	}
	if !filelock.RemovableWhileHeld {
		// an open file cannot be renamed here, so its lock ends at the
		// close: a sweep by another writer before the rename can remove
		// it, and this write then fails, the target left as it was
		if cerr := f.Close(); werr == nil {
			werr = cerr
		}
	}
	tmpLeft := true
	if werr == nil {
		tmpLeft, werr = put(fsys, tmp, path)
	}
	if filelock.RemovableWhileHeld {
		// closed only once renamed, so its lock marks it live until it has
		// its final name; the data is synced, so the close has nothing to report
		f.Close()
	}
	if tmpLeft {
		fsys.Remove(tmp)
	}
	if werr != nil {
		return causeError{werr}
	}
	sweepStale(fsys, dir, filepath.Base(path))
	return nil
}

// createTemp creates a new file prefix<random> in dir through fsys (as
// os.CreateTemp does: readable and writable by its owner only, never an
// existing name) and returns it with its name.
func createTemp(fsys fsys, dir, prefix string) (*os.File, string, error) {
	for try := 0; ; try++ {
		name := filepath.Join(dir, prefix+strconv.FormatUint(uint64(rand.Uint32()), 10))
		f, err := fsys.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, fs.ErrExist) && try < 10000 {
			continue
		}
		return f, name, err
	}
}

// Cause is a file-system error without the operation and path Go puts in
// front ("open /x/.r.tmp-123: no space left on device" → "no space left
// on device"): a temporary file's name means nothing to the user.
func Cause(err error) string {
	if pe, ok := errors.AsType[*fs.PathError](err); ok {
		return pe.Err.Error()
	}
	if le, ok := errors.AsType[*os.LinkError](err); ok {
		return le.Err.Error()
	}
	return err.Error()
}

// causeError is err worded by its [Cause] alone, still wrapping it (a
// caller can tell os.Root's refusal of a path leading out of it).
type causeError struct{ err error }

func (e causeError) Error() string { return Cause(e.err) }
func (e causeError) Unwrap() error { return e.err }

// writeInPlace writes to an existing device or pipe; a FIFO that nothing
// reads is an error at once, never a wait ([openInPlace]).
func writeInPlace(fsys fsys, path string, write func(io.Writer) error) error {
	f, err := openInPlace(fsys, path)
	if err != nil {
		return causeError{err}
	}
	werr := write(f)
	if cerr := f.Close(); werr == nil && cerr != nil {
		return causeError{cerr}
	}
	return werr
}
