//go:build linux

package fetch

import "syscall"

const canLimitFileSize = true

// limitFileSize caps the size of files this process writes (writes past it
// fail with EFBIG; the Go runtime ignores SIGXFSZ).
func limitFileSize(n uint64) error {
	return syscall.Setrlimit(syscall.RLIMIT_FSIZE, &syscall.Rlimit{Cur: n, Max: n})
}
