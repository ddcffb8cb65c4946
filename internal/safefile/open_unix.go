//go:build unix

package safefile

import (
	"os"
	"syscall"
)

// nonBlockFlag keeps an open of a FIFO swapped in after the stat from
// waiting for a writer; on a regular file it changes nothing.
const nonBlockFlag = syscall.O_NONBLOCK

func openNoBlock(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|nonBlockFlag, 0)
}
