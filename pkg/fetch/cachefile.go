package fetch

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"kitsoki/internal/safefile"
)

// errNotRegular is openCacheFile's answer for a link, named pipe, device
// or directory where a lock or a partial download goes.
var errNotRegular = errors.New("is not a regular file (a symbolic link, named pipe, device or directory); kitsoki writes only regular files in its cache: remove it")

// openCacheFile opens (creating it) the lock or partial download at path
// for reading and writing, never through a symbolic link and never on a
// named pipe: a link left in a shared or restored cache would otherwise
// create or overwrite the file it names, anywhere. The Lstat gives the
// clear refusal; the open goes through an os.Root of the file's directory,
// so a link swapped in after the Lstat still cannot reach outside it.
func openCacheFile(path string) (*os.File, error) {
	if st, err := os.Lstat(path); err == nil && !st.Mode().IsRegular() {
		return nil, &fs.PathError{Op: "open", Path: path, Err: errNotRegular}
	}
	root, err := safefile.OpenDirRoot(filepath.Dir(path))
	if err != nil {
		return nil, err
	}
	defer root.Close()
	// O_RDWR: opening a named pipe for reading and writing does not wait
	// for a peer, so the Stat below sees it and refuses it.
	f, err := root.OpenFile(filepath.Base(path), os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		f.Close()
		if err == nil {
			err = errNotRegular
		}
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	return f, nil
}
