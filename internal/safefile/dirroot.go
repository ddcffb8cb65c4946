package safefile

import (
	"io/fs"
	"os"
)

// OpenDirRoot is os.OpenRoot(dir) that refuses, unopened, what is not a
// directory. os.OpenRoot and Root.OpenRoot open their path with neither
// O_DIRECTORY nor O_NONBLOCK, so a FIFO a repository puts in a
// directory's place (schemas/, an import's folder, .kitsoki/) waited for
// a writer forever; a device was opened. What a process beside kitsoki
// swaps in between the stat and the open is not caught.
func OpenDirRoot(dir string) (*os.Root, error) {
	if err := isDir(dir, os.Stat); err != nil {
		return nil, err
	}
	return os.OpenRoot(dir)
}

// OpenSubRoot is root.OpenRoot(name) with [OpenDirRoot]'s check, the stat
// made through root (a link leading out of it is the root's escape error).
func OpenSubRoot(root *os.Root, name string) (*os.Root, error) {
	if err := isDir(name, root.Stat); err != nil {
		return nil, err
	}
	return root.OpenRoot(name)
}

func isDir(name string, stat func(string) (fs.FileInfo, error)) error {
	fi, err := stat(name)
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return notDir("open", name, fi)
	}
	return nil
}
