//go:build unix

package trace

import "syscall"

// noFollow makes the open of a trace fail on a symbolic link put where
// the file goes, between the check and the open.
const noFollow = syscall.O_NOFOLLOW

// noBlock keeps the open of a named pipe or device put where the trace
// goes, between the check and the open, from waiting; it is then refused.
const noBlock = syscall.O_NONBLOCK
