//go:build linux

package trace

import (
	"os"
	"syscall"
)

// syncData makes the file's data and size durable (fdatasync: the
// timestamps a trace reader never looks at are not forced to disk).
func syncData(f *os.File) error {
	for {
		err := syscall.Fdatasync(int(f.Fd()))
		if err != syscall.EINTR {
			if err != nil {
				return &os.PathError{Op: "fdatasync", Path: f.Name(), Err: err}
			}
			return nil
		}
	}
}
