//go:build !unix

package atomicfile

import "os"

// openInPlace opens an existing device for writing (no FIFOs here).
func openInPlace(fsys fsys, path string) (*os.File, error) {
	return fsys.OpenFile(path, os.O_WRONLY, 0)
}

// sweepOpenFlags open a leftover temporary file for its lock.
const sweepOpenFlags = os.O_RDONLY
