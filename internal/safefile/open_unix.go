//go:build unix

package safefile

import (
	"os"
	"syscall"
)

// nonBlockFlag keeps the open of a FIFO from waiting for a writer (or of
// a serial device for its carrier); on a regular file it changes nothing.
// What is opened is then checked and, when it is not a regular file,
// closed unread.
const nonBlockFlag = syscall.O_NONBLOCK

// noTTYFlag keeps a terminal device opened by mistake from becoming the
// process's controlling terminal.
const noTTYFlag = syscall.O_NOCTTY

func openNoBlock(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|nonBlockFlag|noTTYFlag, 0)
}
