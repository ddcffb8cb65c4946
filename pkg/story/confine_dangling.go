package story

import (
	"os"
	"path/filepath"
	"slices"
)

// linkLeadsOut reports whether p is a symbolic link (or a chain of them)
// whose target lies lexically outside every root, following only links
// that lie inside a root: Confined's answer for a link that leads out must
// not depend on whether its target exists (redteam6: validate reported
// prompt-root for prompts/l -> /home/runner/.aws/credentials only when the
// file was there, telling a pull request what the CI machine holds).
func linkLeadsOut(p string, roots []string) bool {
	inRoot := func(q string) bool { return slices.ContainsFunc(roots, func(r string) bool { return within(r, q) }) }
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
	return true
}
