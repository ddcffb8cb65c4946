package safefile

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
)

// maxLinks bounds the symlinks relinked follows on one path (the kernel's
// own bound on a path's links is 40).
const maxLinks = 40

// errLinkOut is relinked's refusal of a symlink on the way whose target
// leaves the root; it names the link, never the target.
type errLinkOut struct{ link string }

func (e *errLinkOut) Error() string {
	return fmt.Sprintf("%v: the symlink %s on the way leads out of it", ErrOutsideRoot, e.link)
}

func (e *errLinkOut) Unwrap() error { return ErrOutsideRoot }

// relinked is rel, a name inside or, with every symlink on the way
// resolved through or itself: an absolute target under the root (or under
// the root's own resolution) is re-expressed relative to the root, so an
// absolute link that stays inside the project keeps working where os.Root
// refuses it. A target leaving the root is an *errLinkOut naming the link
// as a path under the root's directory. The name returned holds no
// symlink as the tree stood when it was read; the caller opens it through
// or again, so a link swapped in meanwhile is still confined.
func (r *Root) relinked(or *os.Root, rel string) (string, error) {
	parts := splitRel(rel)
	done, links, last := "", 0, ""
	for i := 0; i < len(parts); i++ {
		cur := filepath.Join(done, parts[i])
		if parts[i] == ".." {
			if done == "" { // a relative target climbing out
				return "", &errLinkOut{link: filepath.Join(r.dir, last)}
			}
			done = filepath.Dir(done)
			if done == "." {
				done = ""
			}
			continue
		}
		fi, err := or.Lstat(cur)
		if err != nil {
			return "", err
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			if !fi.IsDir() && i < len(parts)-1 { // as the system says of "file/x" and "file/.."
				return "", &os.PathError{Op: "stat", Path: cur, Err: syscall.ENOTDIR}
			}
			done = cur
			continue
		}
		if links++; links > maxLinks {
			return "", &os.PathError{Op: "read", Path: filepath.Join(r.dir, cur), Err: fmt.Errorf("more than %d symlinks on the way", maxLinks)}
		}
		t, err := or.Readlink(cur)
		if err != nil {
			return "", err
		}
		last = cur
		if filepath.IsAbs(t) {
			in, ok := r.relTarget(t)
			if !ok {
				return "", &errLinkOut{link: filepath.Join(r.dir, cur)}
			}
			t = in
			done = ""
		}
		// the target, then what follows the link, walked again from the
		// directory the link sits in (or from the root)
		parts = append(splitRel(t), parts[i+1:]...)
		i = -1
	}
	if done == "" {
		return ".", nil
	}
	return done, nil
}

// relTarget is the absolute symlink target t as a name inside the root:
// under its directory as written, or under that directory's resolution.
// What follows the root's directory is kept as written, a ".." too, for
// relinked to walk as the system does: "root/link/../f" is not "root/f"
// when link is a symlink or missing.
func (r *Root) relTarget(t string) (string, bool) {
	if rel, ok := under(r.dir, t); ok {
		return rel, true
	}
	real := r.realDir()
	if real == r.dir {
		return "", false
	}
	return under(real, t)
}

// under is the rest of the absolute path t after dir's parts, when t
// begins with each of them as written (a ".." among them is no match).
func under(dir, t string) (string, bool) {
	if !filepath.IsAbs(t) {
		return "", false
	}
	dp, tp := splitRel(dir), splitRel(t)
	if len(tp) < len(dp) || !slices.Equal(tp[:len(dp)], dp) || filepath.VolumeName(t) != filepath.VolumeName(dir) {
		return "", false
	}
	if len(tp) == len(dp) {
		return ".", true
	}
	return strings.Join(tp[len(dp):], "/"), true
}

// splitRel splits a relative, slash- or separator-joined name into its
// parts, dropping empty and "." ones.
func splitRel(rel string) []string {
	var out []string
	for _, p := range strings.Split(filepath.ToSlash(rel), "/") {
		if p != "" && p != "." {
			out = append(out, p)
		}
	}
	return out
}

// retryRelinked runs op again on p's name with its links resolved by
// relinked, after op's first try met os.Root's escape: an absolute link
// inside the root is then read; any other escape stays refused, naming
// the link.
func (r *Root) retryRelinked(or *os.Root, rel string, op func(or *os.Root, rel string) error) error {
	name, err := r.relinked(or, rel)
	if err != nil {
		return err
	}
	return op(or, name)
}
