//go:build !unix

package scratchdir

import "os"

// ours reports whether this process's user owns the file st describes
// (always, where ownership is not a uid).
func ours(os.FileInfo) bool { return true }
