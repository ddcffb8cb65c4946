//go:build unix

package scratchdir

import (
	"os"
	"syscall"
)

// ours reports whether this process's user owns the file st describes:
// a sweep leaves another user's files in a shared /tmp alone.
func ours(st os.FileInfo) bool {
	s, ok := st.Sys().(*syscall.Stat_t)
	return ok && int(s.Uid) == os.Getuid()
}
