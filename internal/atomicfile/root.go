package atomicfile

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"kitsoki/internal/safefile"
)

// WriteIn is [Write] for name, a path relative to root: the directory made,
// the target looked at, the temporary file created and renamed over it,
// and the leftovers swept, all through root (an [os.Root]). A symbolic
// link on the way that leads out of root, put there before the write or
// swapped in while it runs, fails the write instead of leading it out
// (root's error, "path escapes from parent", is returned as it is).
func WriteIn(root *os.Root, name string, data []byte, perm fs.FileMode) error {
	return WriteFuncIn(root, name, perm, writeData(data))
}

// WriteFuncIn is [WriteFunc] for name inside root, as [WriteIn] is [Write].
func WriteFuncIn(root *os.Root, name string, perm fs.FileMode, write func(io.Writer) error) error {
	return writeFunc(root, name, perm, write)
}

// ErrLinkOut is wrapped by [WriteBelow]'s error for a path a symbolic
// link on the way leads out of its directory.
var ErrLinkOut = errors.New("a symbolic link on the way leads out of the project root; nothing is written outside it: remove the link, or name a file elsewhere")

// WriteBelow is [Write] for path, an output that may lie inside dir (an
// absolute directory a repository fills: the project root). Inside dir
// (lexically) the write goes through an [os.Root] of dir ([WriteIn]), so a
// link on the way out of dir, there before the write or swapped in while
// it runs, fails it ([ErrLinkOut]) instead of leading it out; a path
// elsewhere is [Write]'s (a device or pipe there written in place).
func WriteBelow(dir, path string, data []byte, perm fs.FileMode) error {
	return below(dir, path, func(root *os.Root, rel string) error {
		return WriteIn(root, rel, data, perm)
	}, func() error { return Write(path, data, perm) })
}

// WriteEntryBelow is [WriteEntry] for path as [WriteBelow] is for [Write]:
// inside dir, its directory is made and what has its name replaced
// through an [os.Root] of dir.
func WriteEntryBelow(dir, path string, data []byte, perm fs.FileMode) error {
	return below(dir, path, func(root *os.Root, rel string) error {
		if st, err := root.Lstat(rel); err == nil && st.IsDir() {
			return errors.New("is a directory; name a file inside it")
		}
		return replace(root, rel, perm, writeData(data))
	}, func() error { return WriteEntry(path, data, perm) })
}

// MkdirBelow is os.MkdirAll of path, through an [os.Root] of dir when path
// lies inside it (as [WriteBelow]): a link on the way out of dir is
// [ErrLinkOut], and nothing is made where it leads.
func MkdirBelow(dir, path string) error {
	return below(dir, path, func(root *os.Root, rel string) error {
		return root.MkdirAll(rel, 0o755)
	}, func() error { return os.MkdirAll(path, 0o755) })
}

// below runs in with an os.Root of dir and path's name inside it when path
// lies lexically inside dir, else elsewhere; os.Root's refusal of a link
// leading out is [ErrLinkOut].
func below(dir, path string, in func(root *os.Root, rel string) error, elsewhere func() error) error {
	abs, err := filepath.Abs(path)
	if err != nil {
		return elsewhere()
	}
	rel, err := filepath.Rel(filepath.Clean(dir), abs)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return elsewhere()
	}
	root, err := safefile.OpenDirRoot(dir)
	if err != nil {
		return elsewhere()
	}
	defer root.Close()
	err = in(root, rel)
	if safefile.IsEscape(err) {
		return ErrLinkOut
	}
	return err
}
