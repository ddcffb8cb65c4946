package safefile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"kitsoki/internal/human"
)

// errNotRegular is wrapped by the error for a path that is not a regular
// file (a device, FIFO, socket or directory).
var errNotRegular = errors.New("not a regular file")

// ErrTooLarge is wrapped by the error for a file over its cap.
var ErrTooLarge = errors.New("file too large")

// ReadFile reads the regular file at path (symlinks followed) if it is
// at most limit bytes. Anything else is refused before it is read.
func ReadFile(path string, limit int64) ([]byte, error) {
	f, fi, err := open(path, limit)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readAll(f, fi.Size(), path, limit, true)
}

// ReadAtMost reads r to its end when it holds at most limit bytes: a
// stream with no size to check first (standard input, an HTTP answer).
// Past limit it stops after limit+1 bytes and returns an error wrapping
// [ErrTooLarge] that names the limit ("more than 4 MiB"), for the caller
// to say what was too large; any other error is the reader's.
func ReadAtMost(r io.Reader, limit int64) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("%w: more than %s", ErrTooLarge, human.Size(limit))
	}
	return b, nil
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
	return openChecked(path, limit, os.Stat, openNoBlock)
}

// openChecked opens name through stat and openf, checking the file before
// and after the open.
func openChecked(name string, limit int64, stat func(string) (fs.FileInfo, error), openf func(string) (*os.File, error)) (*os.File, fs.FileInfo, error) {
	// Stat first: what is not a regular file is refused unopened (a FIFO's
	// open waits for a writer, some devices act on an open alone).
	fi, err := stat(name)
	if err != nil {
		return nil, nil, err
	}
	if err := check(name, fi, limit); err != nil {
		return nil, nil, err
	}
	f, err := openf(name)
	if err != nil {
		return nil, nil, err
	}
	// Check what was opened too: the path may have been swapped since.
	fi, err = f.Stat()
	if err == nil {
		err = check(name, fi, limit)
	}
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, fi, nil
}

// OpenRootFile is [Open] for a name inside root (os.Root keeps the name
// from escaping it): what is not a regular file, or is over limit bytes,
// is refused, unopened when it was so before the open.
func OpenRootFile(root *os.Root, name string, limit int64) (*os.File, error) {
	f, _, err := openChecked(name, limit, root.Stat, func(name string) (*os.File, error) {
		return OpenRootNoBlock(root, name)
	})
	return f, err
}

// ReadRootFile is ReadFile for a name inside root (os.Root keeps the name
// from escaping it).
func ReadRootFile(root *os.Root, name string, limit int64) ([]byte, error) {
	f, fi, err := openChecked(name, limit, root.Stat, func(name string) (*os.File, error) {
		return OpenRootNoBlock(root, name)
	})
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readAll(f, fi.Size(), name, limit, true)
}

func check(path string, fi fs.FileInfo, limit int64) error {
	if fi.IsDir() { // the system's own wording
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
	return &os.PathError{Op: "read", Path: path, Err: fmt.Errorf("%w: %s is over the %s cap for this kind of file; split it or shrink it", ErrTooLarge, what, human.Size(limit))}
}

// readAll reads f, failing if it turns out to hold more than limit bytes
// (a file that grows after the stat). regular says f is a regular file,
// whose read returns less than asked only at its end.
func readAll(f io.Reader, hint int64, path string, limit int64, regular bool) ([]byte, error) {
	// The stat's size (a hint: the cap is enforced on what is read) sizes
	// the buffer, one byte more to see the end without growing it.
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
			break // a regular file read short, at its stat's size, is whole
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
	case m.IsRegular():
		return "a regular file"
	}
	return "not a regular file"
}

// isDirError reads "is a directory" and matches ErrNotRegular.
type isDirError struct{}

func (isDirError) Error() string        { return "is a directory" }
func (isDirError) Is(target error) bool { return target == errNotRegular }

// CheckSize is the error ReadFile gives for a file of size bytes over
// limit (nil when it is not): for content that comes from elsewhere than
// the disk, an editor's buffer, so it meets the same cap and message.
func CheckSize(path string, size, limit int64) error {
	if size > limit {
		return tooLarge(path, size, limit)
	}
	return nil
}
