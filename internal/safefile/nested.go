package safefile

import "path/filepath"

// DropLinkedOut returns roots without those that lie, as written, under
// another of roots yet resolve (their symlinks followed) outside it: a
// story's prompts/ or views/ directory that is a symlink leading out of the
// story would otherwise vouch, as a root of its own, for every file it
// leads to. The enclosing root still holds its path, so what such a
// directory holds is read through that root, which refuses the link out.
// A root that does not resolve (missing) is kept.
func DropLinkedOut(roots []string) []string {
	real := make([]string, len(roots))
	for i, r := range roots {
		real[i] = r
		if rr, err := filepath.EvalSymlinks(r); err == nil {
			real[i] = rr
		}
	}
	out := make([]string, 0, len(roots))
	for i, r := range roots {
		leaves := false
		for j, e := range roots {
			if e != r && Within(e, r) && !Within(real[j], real[i]) && !Within(e, real[i]) {
				leaves = true
				break
			}
		}
		if !leaves {
			out = append(out, r)
		}
	}
	return out
}
