package safefile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
)

// errSwapped is a directory that was no longer the one its parent's
// listing showed when it was opened.
var errSwapped = errors.New("swapped since it was listed")

// WalkRoot calls fn for every entry below the directory dir inside root
// ("." for the root itself), depth first in name order, as
// filepath.WalkDir does, by its name relative to root, and lists each
// directory through root: a directory below dir is listed only when a
// look at its name through root (no link followed) found a directory and
// the open, through root and never waiting, found that same directory.
// A directory removed, or swapped for a symbolic link (leading out of
// root or not, its target there or not), a file or a FIFO, between its
// parent's listing and its own is skipped with no call, the same whatever
// lies where a link leads; nothing outside root is listed or looked at.
// A link is an entry like any file and never followed. fn returning
// fs.SkipDir for a directory skips it, fs.SkipAll ends the walk; fn is
// called with the error of a directory below dir that cannot be listed
// for any other reason (ENAMETOOLONG, permission), and the walk ends with
// what it returns, unless fs.SkipDir. An error listing dir itself is
// returned as it is.
func WalkRoot(root *os.Root, dir string, fn func(rel string, d fs.DirEntry, err error) error) error {
	f, err := OpenRootDir(root, dir)
	if err != nil {
		return err
	}
	err = walkRootDir(root, dir, f, fn)
	if errors.Is(err, fs.SkipAll) {
		return nil
	}
	return err
}

// walkRootDir lists the open directory f, named rel, and walks below it.
func walkRootDir(root *os.Root, rel string, f *os.File, fn func(string, fs.DirEntry, error) error) error {
	ents, err := f.ReadDir(-1)
	f.Close()
	if err != nil {
		return err
	}
	slices.SortFunc(ents, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	for _, d := range ents {
		child := filepath.Join(rel, d.Name())
		if err := fn(child, d, nil); err != nil {
			if errors.Is(err, fs.SkipDir) {
				continue
			}
			return err
		}
		if !d.IsDir() {
			continue
		}
		sub, err := openListed(root, child)
		if err == nil {
			err = walkRootDir(root, child, sub, fn)
		} else if walkGone(err) {
			continue
		} else if err = fn(child, d, err); errors.Is(err, fs.SkipDir) {
			err = nil
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// openListed opens the directory rel inside root for listing when it is
// still the directory a look at its name finds, not a link.
func openListed(root *os.Root, rel string) (*os.File, error) {
	seen, err := root.Lstat(rel)
	if err != nil {
		return nil, err
	}
	if !seen.IsDir() {
		return nil, errSwapped
	}
	f, err := OpenRootNoBlock(root, rel)
	if err != nil {
		return nil, err
	}
	if got, err := f.Stat(); err != nil || !got.IsDir() || !os.SameFile(seen, got) {
		f.Close()
		return nil, errSwapped
	}
	return f, nil
}

// walkGone says err is a directory's that is no longer the one listed:
// removed, or swapped for a link, a file or a FIFO.
func walkGone(err error) bool {
	return errors.Is(err, errSwapped) || errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) ||
		errors.Is(err, syscall.ELOOP) || IsEscape(err)
}
