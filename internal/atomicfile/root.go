package atomicfile

import (
	"io"
	"io/fs"
	"os"
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
