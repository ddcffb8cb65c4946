//go:build !unix

package scratchdir

import "os"

// openFlags open a lock file for its lock.
const openFlags = os.O_RDONLY

// ours reports whether this process's user owns the file st describes
// (always, where ownership is not a uid).
func ours(os.FileInfo) bool { return true }
