//go:build unix

package scratchdir

import (
	"os"
	"syscall"
)

// openFlags open a lock file for its lock without following a link or
// waiting on a pipe put there since the listing.
const openFlags = os.O_RDONLY | syscall.O_NOFOLLOW | syscall.O_NONBLOCK

// ours reports whether this process's user owns the file st describes:
// a sweep leaves another user's files in a shared /tmp alone.
func ours(st os.FileInfo) bool {
	s, ok := st.Sys().(*syscall.Stat_t)
	return ok && int(s.Uid) == os.Getuid()
}
