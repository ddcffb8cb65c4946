package story

import (
	"os"
	"path/filepath"
	"slices"

	"kitsoki/internal/safefile"
)

// linkLeadsOut reports whether p is a symlink (chain) whose target lies
// lexically outside every root, following only links inside a root, so
// Confined's answer does not depend on whether the target exists.
func linkLeadsOut(p string, roots []string) bool {
	inRoot := func(q string) bool {
		return slices.ContainsFunc(roots, func(r string) bool { return safefile.Within(r, q) })
	}
	for range 40 { // the kernel's own limit on links in one lookup
		if !inRoot(p) {
			return true
		}
		fi, err := os.Lstat(p)
		if err != nil || fi.Mode()&os.ModeSymlink == 0 {
			return false
		}
		t, err := os.Readlink(p)
		if err != nil {
			return false
		}
		if !filepath.IsAbs(t) {
			t = filepath.Join(filepath.Dir(p), t)
		}
		p = filepath.Clean(t)
	}
	// a chain longer than the kernel follows, every link inside a root:
	// no lookup gets through it, nothing outside is reached
	return false
}

// whereMissing is where the missing path p would be: the deepest part of
// it that resolves, its symlinks followed, with the rest joined on; a
// dangling symlink on the way is followed by its target's name
// (danglingTarget), so a path under a link leading out to nothing is
// outside as one under a link to an existing directory is.
func whereMissing(p string) string {
	for hops := 0; hops < 40; hops++ { // the kernel's own limit on links in one lookup
		rest := ""
		a := p
		for {
			if r, err := filepath.EvalSymlinks(a); err == nil {
				return filepath.Join(r, rest)
			}
			if t, ok := danglingTarget(a); ok {
				p = filepath.Join(t, rest)
				break
			}
			d := filepath.Dir(a)
			if d == a {
				return p
			}
			rest = filepath.Join(filepath.Base(a), rest)
			a = d
		}
	}
	return p
}

// danglingTarget is the absolute target of a, when a is a symlink that
// does not resolve (its parent directory resolving).
func danglingTarget(a string) (string, bool) {
	fi, err := os.Lstat(a)
	if err != nil || fi.Mode()&os.ModeSymlink == 0 {
		return "", false
	}
	t, err := os.Readlink(a)
	if err != nil {
		return "", false
	}
	if !filepath.IsAbs(t) {
		dir := filepath.Dir(a)
		if r, err := filepath.EvalSymlinks(dir); err == nil {
			dir = r
		}
		t = filepath.Join(dir, t)
	}
	return filepath.Clean(t), true
}
