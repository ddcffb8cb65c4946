//go:build unix

package fetch

import "syscall"

// cacheOpenFlags keep the open of a lock or a partial download from
// following a symbolic link put in the cache in its place (a shared or
// restored cache), which would create or overwrite a file outside it, and
// from waiting on a named pipe put there.
const cacheOpenFlags = syscall.O_NOFOLLOW | syscall.O_NONBLOCK
