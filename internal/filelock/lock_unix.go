//go:build unix

package filelock

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// Try takes an exclusive advisory lock on f without blocking. held reports
// that err is another holder's lock (another process, or another open
// file description in this one).
func Try(f *os.File) (held bool, err error) {
	err = unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB)
	return errors.Is(err, unix.EWOULDBLOCK) || errors.Is(err, unix.EAGAIN), err
}

// Unlock releases the lock Try took.
func Unlock(f *os.File) error { return unix.Flock(int(f.Fd()), unix.LOCK_UN) }

// RemovableWhileHeld: an open, locked file can be unlinked here.
const RemovableWhileHeld = true
