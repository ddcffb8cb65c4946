//go:build unix

package pluginkit

import (
	"os"
	"syscall"
)

// protocolStdout moves the protocol off file descriptor 1: it returns a
// duplicate of stdout for the JSON-RPC frames and points descriptor 1 at
// stderr, so a stray print (fmt.Println, a C library, a child process that
// inherits stdout) reaches kitsoki's log instead of breaking the stream.
// It returns os.Stdout unchanged when the descriptors cannot be moved.
func protocolStdout() *os.File {
	fd, err := syscall.Dup(1)
	if err != nil {
		return os.Stdout
	}
	syscall.CloseOnExec(fd)
	if err := dupOnto(2, 1); err != nil {
		syscall.Close(fd)
		return os.Stdout
	}
	return os.NewFile(uintptr(fd), "/dev/stdout (kitsoki protocol)")
}
