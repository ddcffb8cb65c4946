package scratchdir

import (
	"os"
	"strings"
	"time"

	"kitsoki/internal/atomicfile"
	"kitsoki/internal/filelock"
)

// A directory Make made has, beside it, a lock file of the same name plus
// lockSuffix that its process holds locked ([filelock.Try]) until remove:
// the lock goes with the process, so a lock file nobody holds marks a
// directory whose process died (SIGKILL, a crash, power loss) before it
// could remove it. The lock sits beside the directory, not in it, so what
// the directory holds is only what its users wrote.
const lockSuffix = ".lock"

// settle is how old a free lock file must be before Sweep removes it: a
// live process creates its lock file and locks it a moment later, and a
// sweep in that moment must not take the directory from under it.
const settle = time.Minute

// Make creates a new directory in the system's temporary directory, named
// prefix and a random suffix as os.MkdirTemp names it, marked as this
// process's. remove deletes it and its mark.
func Make(prefix string) (dir string, remove func(), err error) {
	m, err := mark(prefix)
	if err != nil {
		return "", nil, err
	}
	return m.dir, m.remove, nil
}

// marked is a directory Make made and its held lock file (nil: unmarked).
type marked struct {
	dir  string
	lock *os.File
}

// mark makes the directory and takes its lock.
func mark(prefix string) (*marked, error) {
	dir, err := os.MkdirTemp("", prefix)
	if err != nil {
		return nil, err
	}
	m := &marked{dir: dir}
	lock, err := os.OpenFile(dir+lockSuffix, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil { // unmarked: removed on return, only a SIGKILL leaves it
		return m, nil
	}
	_, _ = filelock.Try(lock) // a file system without locks leaves it unmarked, and Sweep leaves it alone
	m.lock = lock
	return m, nil
}

// remove deletes the directory, then its lock file.
func (m *marked) remove() {
	_ = os.RemoveAll(m.dir)
	if m.lock == nil {
		return
	}
	if filelock.RemovableWhileHeld {
		_ = os.Remove(m.lock.Name())
		m.lock.Close()
		return
	}
	m.lock.Close()
	_ = os.Remove(m.lock.Name())
}

// Sweep removes from the system's temporary directory the directories
// Make made with prefix whose process has died. Failures are ignored: a
// leftover is litter, never a reason to fail the run that sweeps.
func Sweep(prefix string) { sweep(os.TempDir(), prefix, time.Now()) }

// sweep is Sweep in tmp at now: a free lock file of prefix's, settled
// and this user's, goes with the directory it marks
// (atomicfile.SweepDeadGuards lists tmp and takes the lock).
func sweep(tmp, prefix string, now time.Time) {
	mine := func(name string) bool { return strings.HasPrefix(name, prefix) && strings.HasSuffix(name, lockSuffix) }
	ready := func(st os.FileInfo) bool { return ours(st) && now.Sub(st.ModTime()) >= settle }
	atomicfile.SweepDeadGuards(tmp, mine, ready, func(lockPath string) bool {
		dir := strings.TrimSuffix(lockPath, lockSuffix)
		if st, err := os.Lstat(dir); err == nil && !st.IsDir() {
			return false // not a directory Make made: leave it
		}
		_ = os.RemoveAll(dir)
		return true
	})
}
