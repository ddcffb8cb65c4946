package atomicfile

import (
	"os"
	"path/filepath"
	"strings"
	"time"

	"kitsoki/internal/filelock"
)

// A writer holds an exclusive lock ([filelock.Try]) on its temporary file
// from just after creating it until it is renamed or removed; the lock
// goes with the process, so a temporary file whose lock is free belongs
// to a writer that died (SIGKILL, power loss) before renaming it.

// lockTemp takes the lock that marks f as a live writer's. A file system
// without locks leaves it unmarked; the sweep then skips every file
// there, this one included, since it cannot tell them apart.
func lockTemp(f *os.File) { _, _ = filelock.Try(f) }

// sweepBatch is how many names of the target's directory are read at a
// time: a directory of many files is listed in bounded memory.
const sweepBatch = 1024

// sweepStale removes from dir the temporary files of earlier writes of
// base that a dead writer left. Failures are ignored: a leftover is
// litter, never a reason to fail the write that just succeeded.
//
// An empty one is kept while it is young: a writer locks its temporary
// file just after creating it and writes only once it holds the lock, so
// a file with bytes in it and a free lock is a dead writer's, while an
// empty one may be a live writer's not locked yet (two writes of one
// target at once: a sweep in that moment removed the other's file and
// failed its write). That moment is the one between two system calls, so
// an empty file older than emptyStaleAge with a free lock is a dead
// writer's too (killed before it wrote a byte), and goes.
func sweepStale(fsys fsys, dir, base string) {
	prefix := "." + base + ".tmp-"
	sweepDead(fsys, dir, func(name string) bool { return strings.HasPrefix(name, prefix) }, &guard{ready: deadIfFree})
}

// emptyStaleAge is how old an empty temporary file must be before a free
// lock says its writer is dead: far past the moment between a writer's
// create and lock, with room for a file server's clock ahead of ours.
const emptyStaleAge = 10 * time.Minute

// deadIfFree reports whether a temporary file whose lock is free is a
// dead writer's: it has bytes in it (its writer held the lock before
// writing them), or it is empty and older than emptyStaleAge.
func deadIfFree(st os.FileInfo) bool {
	return st.Size() > 0 || time.Since(st.ModTime()) > emptyStaleAge
}

// SweepDead removes from dir the regular files whose names match accepts
// and whose lock ([filelock.Try]) no live process holds: the scratch files
// of writers that died before removing them (a second Ctrl-C, SIGKILL). A
// writer marks its scratch file live by holding that lock on it from
// creation to removal. Failures are ignored, as sweepStale's.
func SweepDead(dir string, match func(name string) bool) { sweepDead(osFS{}, dir, match, nil) }

// SweepDeadGuards is SweepDead for lock files that mark something beside
// them (a directory) as a live process's. ready, asked before the lock is
// tried, keeps a lock file it refuses untouched (too young: its process
// may not have locked it yet; another user's); with a free lock held,
// guarded(lockPath) removes what it marks and reports true, and the lock
// file goes too, or false keeps both (not what the lock names).
func SweepDeadGuards(dir string, match func(name string) bool, ready func(os.FileInfo) bool, guarded func(lockPath string) bool) {
	sweepDead(osFS{}, dir, match, &guard{ready, guarded})
}

// guard is what SweepDeadGuards asks of a lock file (nil: SweepDead's
// scratch file, which guards nothing; a nil guarded: a file that guards
// nothing, removed once ready).
type guard struct {
	ready   func(os.FileInfo) bool
	guarded func(string) bool
}

// sweepDead is SweepDead (g nil) or SweepDeadGuards through fsys.
func sweepDead(fsys fsys, dir string, match func(name string) bool, g *guard) {
	d, err := fsys.OpenFile(dir, os.O_RDONLY, 0)
	if err != nil {
		return
	}
	defer d.Close()
	for {
		ents, err := d.ReadDir(sweepBatch)
		for _, e := range ents {
			if match(e.Name()) && e.Type().IsRegular() {
				removeIfDead(fsys, filepath.Join(dir, e.Name()), g)
			}
		}
		if err != nil { // io.EOF at the end, or a listing that failed
			return
		}
	}
}

// removeIfDead removes the file p when no live process holds its lock,
// and first what it guards when g is set (as g decides).
// It is opened without following a link or waiting on a pipe put there
// since the listing, and must still be a regular file.
func removeIfDead(fsys fsys, p string, g *guard) {
	f, err := fsys.OpenFile(p, sweepOpenFlags, 0)
	if err != nil {
		return
	}
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() || (g != nil && !g.ready(st)) {
		f.Close()
		return
	}
	if _, err := filelock.Try(f); err != nil { // held by a live writer, or no locks here
		f.Close()
		return
	}
	if g != nil && g.guarded != nil && !g.guarded(p) {
		f.Close()
		return
	}
	if filelock.RemovableWhileHeld {
		fsys.Remove(p)
		f.Close()
		return
	}
	f.Close()
	fsys.Remove(p)
}
