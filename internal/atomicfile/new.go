package atomicfile

import (
	"errors"
	"io/fs"
	"os"
)

// WriteNew writes data to path (mode perm) as [Write] does, whole or not
// at all, but only when nothing has that name yet: an existing path, a
// file another writer put there a moment before included, is left as it
// was and the error wraps [fs.ErrExist], so the caller can pick another
// name. Two writers of one new name never both succeed, and neither
// replaces the other's file.
//
// The written temporary file gets the name through a hard link, which
// fails when the name is taken. Where the file system has no hard links,
// the name is first claimed by creating it empty and exclusively, then
// the temporary file is renamed over that claim: a reader may then see
// the empty file for that moment, never half of the data.
func WriteNew(path string, data []byte, perm fs.FileMode) error {
	return writeNew(osFS{}, path, data, perm)
}

// writeNew is WriteNew on fsys (tests stand in for a file system without
// hard links, which no unprivileged test can mount).
func writeNew(fsys fsys, path string, data []byte, perm fs.FileMode) error {
	return place(fsys, path, perm, writeData(data), linkNew)
}

// linkNew gives tmp the name path when path does not exist yet; tmp is
// left for the caller to remove.
func linkNew(fsys fsys, tmp, path string) (tmpLeft bool, err error) {
	err = fsys.Link(tmp, path)
	if err == nil || errors.Is(err, fs.ErrExist) || !noHardLinks(err) {
		return true, err
	}
	claim, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return true, err
	}
	claim.Close()
	if err := fsys.Rename(tmp, path); err != nil {
		os.Remove(path) // the empty claim, never a file of another writer's
		return true, err
	}
	return false, nil
}

// noHardLinks reports whether err says the file system cannot hard-link
// (FAT, some network and FUSE file systems), not that the link itself
// was refused for its name or place.
func noHardLinks(err error) bool {
	var le *os.LinkError
	if !errors.As(err, &le) {
		return false
	}
	// EPERM is Linux's word for a file system without hard links
	return errors.Is(le.Err, errors.ErrUnsupported) || errors.Is(le.Err, fs.ErrPermission)
}
