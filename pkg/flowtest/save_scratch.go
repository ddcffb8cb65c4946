package flowtest

import (
	"os"
	"strings"

	"kitsoki/internal/atomicfile"
	"kitsoki/internal/filelock"
)

// The scratch cassette of a save: .save-fixture-*.cassette.yaml beside the
// fixture, which the draft fixture replays until it passes. It is removed
// on every way out of SaveFixture; a save killed before that (a second
// Ctrl-C, SIGKILL) leaves it, and the next save in that folder sweeps it:
// a live save holds a lock on its scratch file until it removes it.
const (
	scratchPrefix = ".save-fixture-"
	scratchSuffix = ".cassette.yaml"
)

// isScratch reports whether name is a save's scratch cassette.
func isScratch(name string) bool {
	return strings.HasPrefix(name, scratchPrefix) && strings.HasSuffix(name, scratchSuffix)
}

// scratchFile is a save's scratch cassette, open and locked until removed.
type scratchFile struct{ *os.File }

// writeScratch sweeps dir of dead saves' scratch cassettes, then writes
// cassette to a new one there.
func writeScratch(dir string, cassette []byte) (*scratchFile, error) {
	atomicfile.SweepDead(dir, isScratch)
	f, err := os.CreateTemp(dir, scratchPrefix+"*"+scratchSuffix)
	if err != nil {
		return nil, err
	}
	_, _ = filelock.Try(f) // no locks on this file system: it is never swept
	s := &scratchFile{f}
	if _, err := f.Write(cassette); err != nil {
		s.remove()
		return nil, err
	}
	return s, nil
}

// remove closes and removes the scratch cassette.
func (s *scratchFile) remove() {
	s.Close()
	os.Remove(s.Name())
}

// ready makes the scratch cassette what a saved one is: on disk and
// readable as [atomicfile.Write] leaves a file (mode 0644).
func (s *scratchFile) ready() error {
	if err := s.Sync(); err != nil {
		return err
	}
	return s.Chmod(0o644)
}

// place renames the scratch cassette to path, replacing what has that
// name; it holds its lock until then where an open file can be renamed.
func (s *scratchFile) place(path string) error {
	if !filelock.RemovableWhileHeld {
		s.Close()
	}
	return os.Rename(s.Name(), path)
}
