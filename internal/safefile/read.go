package safefile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// errNotRegular is wrapped by the error for a path that is not a regular
// file (a device, FIFO, socket or directory).
var errNotRegular = errors.New("not a regular file")

// ErrTooLarge is wrapped by the error for a file over its cap.
var ErrTooLarge = errors.New("file too large")

// ReadFile reads the regular file at path (symlinks followed) if it is
// at most limit bytes. Anything else is refused before it is read.
func ReadFile(path string, limit int64) ([]byte, error) {
	return readFile(path, limit) // read_unix.go, read_other.go
}

// readFileOpen is ReadFile through Open.
func readFileOpen(path string, limit int64) ([]byte, error) {
	f, fi, err := open(path, limit)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readAll(f, fi.Size(), path, limit, true)
}

// Open opens the regular file at path for reading, refusing what is not a
// regular file or is over limit bytes. The returned file is positioned at
// its start; a caller that streams it should still bound what it reads
// (a line cap, or io.LimitReader).
func Open(path string, limit int64) (*os.File, error) {
	f, _, err := open(path, limit)
	return f, err
}

// open is Open, also returning what the opened file's stat said.
func open(path string, limit int64) (*os.File, fs.FileInfo, error) {
	if nonBlockFlag == 0 {
		// No way to open a FIFO without waiting for a writer here: it is
		// refused by a stat, unopened.
		fi, err := os.Stat(path)
		if err != nil {
			return nil, nil, err
		}
		if err := check(path, fi, limit); err != nil {
			return nil, nil, err
		}
	}
	// The path is opened first, without blocking (a FIFO's open does not
	// wait for a writer), and what was opened is checked: one lookup of
	// the path, and no window for it to be swapped after a check.
	f, err := openNoBlock(path)
	if err != nil {
		return nil, nil, openFailed(path, limit, err)
	}
	fi, err := f.Stat()
	if err == nil {
		err = check(path, fi, limit)
	}
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, fi, nil
}

// openFailed is the error for a path whose open failed: what a stat of it
// says when the stat fails or refuses it (a missing file reads "stat
// ...", a socket, which cannot be opened, reads as not a regular file),
// else the open's own error (a file the stat sees but may not be read).
// The errors are those of a stat before the open, at the cost of a stat
// only when the open failed.
func openFailed(path string, limit int64, err error) error {
	fi, serr := os.Stat(path)
	if serr != nil {
		return serr
	}
	if cerr := check(path, fi, limit); cerr != nil {
		return cerr
	}
	return err
}

// ReadRootFile is ReadFile for a name inside root (os.Root keeps the name
// from escaping it).
func ReadRootFile(root *os.Root, name string, limit int64) ([]byte, error) {
	if nonBlockFlag == 0 {
		fi, err := root.Stat(name)
		if err != nil {
			return nil, err
		}
		if err := check(name, fi, limit); err != nil {
			return nil, err
		}
	}
	f, err := root.OpenFile(name, os.O_RDONLY|nonBlockFlag|noTTYFlag, 0)
	if err != nil {
		// As openFailed, through the root.
		if fi, serr := root.Stat(name); serr != nil {
			return nil, serr
		} else if cerr := check(name, fi, limit); cerr != nil {
			return nil, cerr
		}
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if err := check(name, fi, limit); err != nil {
		return nil, err
	}
	return readAll(f, fi.Size(), name, limit, true)
}

func check(path string, fi fs.FileInfo, limit int64) error {
	if fi.IsDir() {
		// The system's own wording, so messages read as before.
		return &os.PathError{Op: "read", Path: path, Err: isDirError{}}
	}
	if !fi.Mode().IsRegular() {
		return &os.PathError{Op: "read", Path: path, Err: fmt.Errorf("%w (%s): kitsoki reads only regular files; point it at a file, not a device, FIFO, socket or directory", errNotRegular, kind(fi.Mode()))}
	}
	if fi.Size() > limit {
		return tooLarge(path, fi.Size(), limit)
	}
	return nil
}

func tooLarge(path string, size, limit int64) error {
	what := fmt.Sprintf("%d bytes", size)
	if size < 0 {
		what = "more"
	}
	return &os.PathError{Op: "read", Path: path, Err: fmt.Errorf("%w: %s is over the %s cap for this kind of file; split it or shrink it", ErrTooLarge, what, humanSize(limit))}
}

// readAll reads f, failing if it turns out to hold more than limit bytes
// (a file that grows after the stat). regular says f is a regular file,
// whose read returns less than asked only at its end.
func readAll(f io.Reader, hint int64, path string, limit int64, regular bool) ([]byte, error) {
	// The size of the opened file (its stat, already taken) sizes the
	// buffer, one byte more to see the end without growing it: a large
	// story is not copied through doubling buffers. The size is only a
	// hint; the cap is enforced on what is read.
	size := int64(512)
	if hint >= 0 && hint < limit {
		size = hint + 1
	}
	b := make([]byte, 0, size)
	r := io.LimitReader(f, limit+1)
	for {
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if regular && int64(len(b)) == hint && len(b) < cap(b) {
			// A regular file read short of the buffer is at its end, and
			// it ended at the size its stat gave: that is the whole file
			// (one that grew fills the spare byte and is read on).
			break
		}
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
	}
	if int64(len(b)) > limit {
		return nil, tooLarge(path, -1, limit)
	}
	return b, nil
}

func kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	case m&fs.ModeIrregular != 0:
		return "an irregular file"
	}
	return "not a regular file"
}

// humanSize renders a byte count as "4 MiB".
func humanSize(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// isDirError reads "is a directory" and matches ErrNotRegular.
type isDirError struct{}

func (isDirError) Error() string        { return "is a directory" }
func (isDirError) Is(target error) bool { return target == errNotRegular }
