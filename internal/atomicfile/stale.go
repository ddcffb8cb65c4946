package atomicfile

import (
	"os"
	"path/filepath"
	"strings"

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
func sweepStale(fsys fsys, dir, base string) {
	prefix := "." + base + ".tmp-"
	sweepDead(fsys, dir, func(name string) bool { return strings.HasPrefix(name, prefix) })
}

// SweepDead removes from dir the regular files whose names match accepts
// and whose lock ([filelock.Try]) no live process holds: the scratch files
// of writers that died before removing them (a second Ctrl-C, SIGKILL). A
// writer marks its scratch file live by holding that lock on it from
// creation to removal. Failures are ignored, as sweepStale's.
func SweepDead(dir string, match func(name string) bool) { sweepDead(osFS{}, dir, match) }

// sweepDead is SweepDead through fsys.
func sweepDead(fsys fsys, dir string, match func(name string) bool) {
	d, err := fsys.OpenFile(dir, os.O_RDONLY, 0)
	if err != nil {
		return
	}
	defer d.Close()
	for {
		ents, err := d.ReadDir(sweepBatch)
		for _, e := range ents {
			if match(e.Name()) && e.Type().IsRegular() {
				removeIfDead(fsys, filepath.Join(dir, e.Name()))
			}
		}
		if err != nil { // io.EOF at the end, or a listing that failed
			return
		}
	}
}

// removeIfDead removes the temporary file p when no live writer holds its
// lock. It is opened without following a link or waiting on a pipe put
// there since the listing, and must still be a regular file.
func removeIfDead(fsys fsys, p string) {
	f, err := fsys.OpenFile(p, sweepOpenFlags, 0)
	if err != nil {
		return
	}
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		f.Close()
		return
	}
	if _, err := filelock.Try(f); err != nil { // held by a live writer, or no locks here
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
