package host

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"kitsoki/internal/safefile"
)

// workDir is the run's working directory: Env.WorkDir, or the process
// directory when the run has none.
func (e *Env) workDir() (string, error) {
	d := ""
	if e != nil {
		d = e.WorkDir
	}
	if d == "" {
		wd, err := os.Getwd()
		if err != nil {
			return "", fmt.Errorf("the working directory is unknown: %v", err)
		}
		d = wd
	}
	return filepath.Abs(d)
}

// errOutside is wrapped by every confinement refusal.
var errOutside = errors.New("path escapes its directory")

// confine resolves p (relative to base when not absolute) and checks that
// it stays inside base, following the symlinks of the part that exists.
// It returns the absolute path. label names the argument in errors.
func confine(handler, label, base, p string) (string, error) {
	if strings.ContainsRune(p, 0) {
		return "", fmt.Errorf("%s: %s %q contains a NUL byte", handler, label, p)
	}
	abs := p
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(base, p)
	}
	abs = filepath.Clean(abs)
	if !safefile.Within(base, abs) {
		return "", fmt.Errorf("%s: %s %q resolves outside %s (%w); use a path inside it", handler, label, p, base, errOutside)
	}
	// Symlinks: the longest existing prefix must still be inside base.
	realBase, err := filepath.EvalSymlinks(base)
	if err != nil {
		realBase = base
	}
	out := false
	for probe := abs; ; {
		if r, err := filepath.EvalSymlinks(probe); err == nil {
			rest, _ := filepath.Rel(probe, abs)
			out = !safefile.Within(realBase, filepath.Join(r, rest))
			break
		}
		parent := filepath.Dir(probe)
		if parent == probe {
			break
		}
		probe = parent
	}
	// a link whose target does not exist is refused the same: a story
	// must not learn whether a file outside exists
	if out || linkLeadsOut(base, realBase, abs) {
		return "", fmt.Errorf("%s: %s %q leads outside %s through a symbolic link (%w)", handler, label, p, base, errOutside)
	}
	return abs, nil
}

// linkLeadsOut reports whether a symbolic link on abs's way down from base
// (or a chain of them, followed while they stay inside) names a target
// lexically outside base, whether or not that target exists.
func linkLeadsOut(base, realBase, abs string) bool {
	rel, err := filepath.Rel(base, abs)
	if err != nil || rel == "." {
		return false
	}
	inside := func(q string) bool { return safefile.Within(base, q) || safefile.Within(realBase, q) }
	p := base
	for part := range strings.SplitSeq(rel, string(filepath.Separator)) {
		p = filepath.Join(p, part)
		for q, hops := p, 0; ; hops++ {
			fi, err := os.Lstat(q)
			if err != nil {
				return false // nothing more exists on the way down
			}
			if fi.Mode()&os.ModeSymlink == 0 {
				break
			}
			t, err := os.Readlink(q)
			if err != nil {
				return false
			}
			if !filepath.IsAbs(t) {
				t = filepath.Join(filepath.Dir(q), t)
			}
			if q = filepath.Clean(t); !inside(q) || hops == 40 {
				return true
			}
		}
	}
	return false
}
