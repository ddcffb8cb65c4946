//go:build unix

package safefile

import (
	"io"
	"os"
	"syscall"
)

// readFile is ReadFile on a raw descriptor (no *os.File, no poller, no
// cleanup) for the common case, a regular file under the cap; anything
// else goes through Open, which words the error. As open, the path is
// stat'ed first and what was opened must be the file the stat saw.
func readFile(path string, limit int64) ([]byte, error) {
	var named, st syscall.Stat_t
	if syscall.Stat(path, &named) != nil || !regularUnder(&named, limit) {
		return readFileOpen(path, limit)
	}
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC|nonBlockFlag|noTTYFlag, 0)
	if err != nil {
		return readFileOpen(path, limit)
	}
	defer syscall.Close(fd)
	if syscall.Fstat(fd, &st) != nil || !regularUnder(&st, limit) || st.Dev != named.Dev || st.Ino != named.Ino {
		return readFileOpen(path, limit)
	}
	return readAll(fdReader{fd, path}, st.Size, path, limit, true)
}

// fdReader reads a descriptor as an *os.File does: EINTR retried, errors
// naming the file, io.EOF at the end.
type fdReader struct {
	fd   int
	path string
}

func (r fdReader) Read(b []byte) (int, error) {
	for {
		n, err := syscall.Read(r.fd, b)
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return 0, &os.PathError{Op: "read", Path: r.path, Err: err}
		case n == 0 && len(b) > 0:
			return 0, io.EOF
		}
		return n, nil
	}
}

// regularUnder says st is a regular file of at most limit bytes.
func regularUnder(st *syscall.Stat_t, limit int64) bool {
	return uint32(st.Mode)&syscall.S_IFMT == syscall.S_IFREG && st.Size <= limit
}
