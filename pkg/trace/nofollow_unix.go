//go:build unix

package trace

import "syscall"

// noFollow makes the open of a trace fail on a symbolic link put where
// the file goes, between the check and the open.
const noFollow = syscall.O_NOFOLLOW
