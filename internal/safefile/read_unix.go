//go:build unix

package safefile

import (
	"io"
	"io/fs"
	"os"
	"syscall"
	"time"
)

// readFile is ReadFile on a raw descriptor: the file is read whole and
// closed at once, so it needs no *os.File (whose open registers it with
// the poller, which refuses a regular file, and whose cleanup the
// collector runs). The checks are Open's: a stat before the open (a FIFO
// or device is refused unopened), then the opened file's own.
func readFile(path string, limit int64) ([]byte, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if err := check(path, fi, limit); err != nil {
		return nil, err
	}
	var fd int
	for {
		fd, err = syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC|nonBlockFlag, 0)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	defer syscall.Close(fd)
	var st syscall.Stat_t
	for {
		err = syscall.Fstat(fd, &st)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return nil, &os.PathError{Op: "stat", Path: path, Err: err}
	}
	ofi := statInfo{size: st.Size, mode: modeOf(uint32(st.Mode))}
	if err := check(path, ofi, limit); err != nil {
		return nil, err
	}
	return readAll(fdReader{fd: fd, path: path}, ofi.size, path, limit)
}

// fdReader reads a descriptor as os.File does: EINTR retried, errors as
// *os.PathError, io.EOF at the end.
type fdReader struct {
	fd   int
	path string
}

func (r fdReader) Read(b []byte) (int, error) {
	if len(b) == 0 {
		return 0, nil
	}
	for {
		n, err := syscall.Read(r.fd, b)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return 0, &os.PathError{Op: "read", Path: r.path, Err: err}
		}
		if n == 0 {
			return 0, io.EOF
		}
		return n, nil
	}
}

// statInfo is the part of a descriptor's stat that check reads.
type statInfo struct {
	size int64
	mode fs.FileMode
}

func (s statInfo) Name() string       { return "" }
func (s statInfo) Size() int64        { return s.size }
func (s statInfo) Mode() fs.FileMode  { return s.mode }
func (s statInfo) ModTime() time.Time { return time.Time{} }
func (s statInfo) IsDir() bool        { return s.mode.IsDir() }
func (s statInfo) Sys() any           { return nil }

// modeOf is the file type bits of a stat's mode, as os.Stat reports them.
func modeOf(m uint32) fs.FileMode {
	perm := fs.FileMode(m & 0o777)
	switch m & syscall.S_IFMT {
	case syscall.S_IFREG:
		return perm
	case syscall.S_IFDIR:
		return perm | fs.ModeDir
	case syscall.S_IFIFO:
		return perm | fs.ModeNamedPipe
	case syscall.S_IFSOCK:
		return perm | fs.ModeSocket
	case syscall.S_IFCHR:
		return perm | fs.ModeDevice | fs.ModeCharDevice
	case syscall.S_IFBLK:
		return perm | fs.ModeDevice
	case syscall.S_IFLNK:
		return perm | fs.ModeSymlink
	}
	return perm | fs.ModeIrregular
}
