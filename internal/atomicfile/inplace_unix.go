//go:build unix

package atomicfile

import (
	"errors"
	"os"
	"syscall"
)

// errNoReader is the open of a FIFO that nothing reads: a blocking open
// would wait for a reader that may never come.
var errNoReader = errors.New("is a named pipe (FIFO) that nothing is reading; start its reader first, or name a regular file")

// openInPlace opens an existing device or pipe for writing without
// waiting (a FIFO with no reader fails at once, ENXIO) and without taking a
// controlling terminal; writes then block as a write to stdout does.
func openInPlace(fsys fsys, path string) (*os.File, error) {
	f, err := fsys.OpenFile(path, os.O_WRONLY|syscall.O_NONBLOCK|syscall.O_NOCTTY, 0)
	if errors.Is(err, syscall.ENXIO) {
		return nil, errNoReader
	}
	if err != nil {
		return nil, err
	}
	if err := syscall.SetNonblock(int(f.Fd()), false); err != nil { // Fd makes the file blocking too
		f.Close()
		return nil, err
	}
	return f, nil
}

// sweepOpenFlags open a leftover temporary file for its lock without
// following a link or waiting on a pipe put at its name.
const sweepOpenFlags = os.O_RDONLY | syscall.O_NOFOLLOW | syscall.O_NONBLOCK
