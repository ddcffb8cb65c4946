package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

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
// an error at once: the write does not wait for a reader to come.
func WriteFunc(path string, perm fs.FileMode, write func(io.Writer) error) error {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return errors.New("is a directory; name a file inside it")
	} else if err == nil && st.Mode()&(fs.ModeDevice|fs.ModeCharDevice|fs.ModeNamedPipe) != 0 {
		return writeInPlace(path, write)
	}
	return replace(path, perm, write)
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
	return replace(path, perm, writeData(data))
}

// replace writes path whole through a temporary file renamed over it.
func replace(path string, perm fs.FileMode, write func(io.Writer) error) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("cannot create its directory: %s", Cause(err))
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("cannot create a file in %s: %s", dir, Cause(err))
	}
	tmp := f.Name()
	lockTemp(f)
	if err := write(f); err != nil {
		f.Close()
		os.Remove(tmp)
		return err
	}
	werr := f.Sync()
	if !filelock.RemovableWhileHeld {
		// an open file cannot be renamed here, so its lock ends at the
		// close: a sweep by another writer before the rename can remove
		// it, and this write then fails, the target left as it was
		if cerr := f.Close(); werr == nil {
			werr = cerr
		}
	}
	if werr == nil {
		werr = os.Chmod(tmp, perm)
	}
	if werr == nil {
		werr = os.Rename(tmp, path)
	}
	if filelock.RemovableWhileHeld {
		// closed only once renamed, so its lock marks it live until it has
		// its final name; the data is synced, so the close has nothing to report
		f.Close()
	}
	if werr != nil {
		os.Remove(tmp)
		return errors.New(Cause(werr))
	}
	sweepStale(dir, filepath.Base(path))
	return nil
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

// writeInPlace writes to an existing device or pipe; a FIFO that nothing
// reads is an error at once, never a wait ([openInPlace]).
func writeInPlace(path string, write func(io.Writer) error) error {
	f, err := openInPlace(path)
	if err != nil {
		return errors.New(Cause(err))
	}
	werr := write(f)
	if cerr := f.Close(); werr == nil && cerr != nil {
		return errors.New(Cause(cerr))
	}
	return werr
}
