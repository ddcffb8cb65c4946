package safefile

import (
	"errors"
	"os"
	"path/filepath"
)

// OpenAppendIn opens the existing regular file path, inside the directory
// dir, for appending, through an [os.Root] of dir: a symlink on the way
// leading out of dir (there before, or swapped in since the file was read)
// is [ErrOutsideRoot], and nothing outside is opened; a FIFO or device put
// at its name is refused without waiting on it.
func OpenAppendIn(dir, path string) (*os.File, error) {
	rel, err := filepath.Rel(dir, path)
	if err != nil || !filepath.IsLocal(rel) {
		return nil, &os.PathError{Op: "open", Path: path, Err: ErrOutsideRoot}
	}
	root, err := OpenDirRoot(dir)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	f, err := root.OpenFile(rel, os.O_WRONLY|os.O_APPEND|nonBlockFlag|noTTYFlag, 0)
	if IsEscape(err) {
		return nil, &os.PathError{Op: "open", Path: path, Err: ErrOutsideRoot}
	}
	if err != nil {
		return nil, err
	}
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		_ = f.Close()
		return nil, &os.PathError{Op: "open", Path: path, Err: errors.New("not a regular file")}
	}
	return f, nil
}
