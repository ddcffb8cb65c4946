//go:build unix

package fetch

import (
	"errors"
	"syscall"
)

// freeSpace is the bytes an unprivileged user may still write at dir.
func freeSpace(dir string) (int64, error) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		return -1, err
	}
	return int64(st.Bavail) * int64(st.Bsize), nil
}

// isDiskFull reports a write that failed for want of space or quota.
func isDiskFull(err error) bool {
	return errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT)
}
