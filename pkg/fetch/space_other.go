//go:build !unix

package fetch

import (
	"errors"
	"syscall"
)

// freeSpace is unknown here (-1): only the write error reports a full disk.
func freeSpace(string) (int64, error) { return -1, nil }

// isDiskFull reports a write that failed for want of space.
func isDiskFull(err error) bool { return errors.Is(err, syscall.ENOSPC) }
