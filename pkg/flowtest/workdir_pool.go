package flowtest

import (
	"os"
)

// workDirs keeps the empty temporary working directories fixtures leave
// for the next ones during a Run (removing one can cost more than a
// fixture's turns); a fixture always starts in an empty directory of its own.
type workDirs struct {
	active int      // Run calls in flight; outside them nothing is kept
	free   []string // empty directories ready for the next fixture
}

// takeWorkDir returns an empty temporary directory and the function that
// releases it.
func (r *Runner) takeWorkDir() (string, func(), error) {
	r.mu.Lock()
	var dir string
	if n := len(r.dirs.free); n > 0 {
		dir, r.dirs.free = r.dirs.free[n-1], r.dirs.free[:n-1]
	}
	r.mu.Unlock()
	if dir == "" {
		var err error
		if dir, err = os.MkdirTemp("", "kitsoki-flow-"); err != nil {
			return "", nil, err
		}
	}
	return dir, func() { r.releaseWorkDir(dir) }, nil
}

// releaseWorkDir keeps dir when a Run is in flight and it is empty, else removes it.
func (r *Runner) releaseWorkDir(dir string) {
	if entries, err := os.ReadDir(dir); err == nil && len(entries) == 0 {
		r.mu.Lock()
		if r.dirs.active > 0 {
			r.dirs.free = append(r.dirs.free, dir)
			r.mu.Unlock()
			return
		}
		r.mu.Unlock()
	}
	_ = os.RemoveAll(dir)
}

// beginRun and endRun bracket a Run: endRun removes the kept directories
// once the last Run in flight ends.
func (r *Runner) beginRun() {
	r.mu.Lock()
	r.dirs.active++
	r.mu.Unlock()
}

func (r *Runner) endRun() {
	r.mu.Lock()
	r.dirs.active--
	var drop []string
	if r.dirs.active == 0 {
		drop, r.dirs.free = r.dirs.free, nil
	}
	r.mu.Unlock()
	for _, d := range drop {
		_ = os.RemoveAll(d)
	}
}
