package fetch

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// errNotRegular is openCacheFile's answer for a link, named pipe, device
// or directory where a lock or a partial download goes.
var errNotRegular = errors.New("is not a regular file (a symbolic link, named pipe, device or directory); kitsoki writes only regular files in its cache: remove it")

// openCacheFile opens (creating it) the lock or partial download at path
// for reading and writing, never through a symbolic link and never
// waiting on a named pipe: a link left in a shared or restored cache
// would otherwise create or overwrite the file it names, anywhere.
func openCacheFile(path string) (*os.File, error) {
	if st, err := os.Lstat(path); err == nil && !st.Mode().IsRegular() {
		return nil, &fs.PathError{Op: "open", Path: path, Err: errNotRegular}
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|cacheOpenFlags, 0o644)
	if err != nil {
		if st, lerr := os.Lstat(path); lerr == nil && !st.Mode().IsRegular() {
			return nil, &fs.PathError{Op: "open", Path: path, Err: errNotRegular}
		}
		return nil, err
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
