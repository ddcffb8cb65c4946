//go:build linux

package childproc

import (
	"errors"
	"io"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// counted reads the child's stdout with the read syscall made under
// o.mu, so snap sees the pipe and the reader's count at one moment.
type counted struct {
	rc syscall.RawConn
	o  *outCount
}

func countedReader(f *os.File, o *outCount) io.Reader {
	rc, err := f.SyscallConn()
	if err != nil {
		return nil
	}
	nonblocking := false
	if err := rc.Control(func(fd uintptr) {
		fl, err := unix.FcntlInt(fd, unix.F_GETFL, 0)
		nonblocking = err == nil && fl&unix.O_NONBLOCK != 0
	}); err != nil || !nonblocking {
		return nil // a blocking read under o.mu would hold the barrier up
	}
	return &counted{rc: rc, o: o}
}

func (r *counted) Read(p []byte) (n int, err error) {
	if len(p) == 0 {
		return 0, nil
	}
	var rerr error
	cerr := r.rc.Read(func(fd uintptr) bool {
		r.o.mu.Lock()
		defer r.o.mu.Unlock()
		for {
			n, rerr = unix.Read(int(fd), p)
			if !errors.Is(rerr, unix.EINTR) {
				break
			}
		}
		if errors.Is(rerr, unix.EAGAIN) {
			n, rerr = 0, nil
			r.o.waiting = true
			r.o.signal()
			return false // wait until the pipe is readable
		}
		if n > 0 {
			r.o.read(p[:n])
			r.o.signal()
		}
		return true
	})
	switch {
	case cerr != nil:
		return 0, cerr
	case rerr != nil:
		return 0, &os.PathError{Op: "read", Path: "|0", Err: rerr}
	case n == 0:
		return 0, io.EOF
	}
	return n, nil
}

// snap is o with the count of bytes f's pipe holds unread, taken under
// o.mu (so no read of the reader falls between them); ok is false when
// the pipe cannot be asked (it is closed: the reader ends).
func snap(f *os.File, o *outCount) (s snapshot, ok bool) {
	rc, err := f.SyscallConn()
	if err != nil {
		return snapshot{}, false
	}
	var ierr error
	if err := rc.Control(func(fd uintptr) {
		o.mu.Lock()
		defer o.mu.Unlock()
		var n int
		n, ierr = unix.IoctlGetInt(int(fd), unix.TIOCINQ) // FIONREAD
		s = o.take(n)
	}); err != nil || ierr != nil {
		return snapshot{}, false
	}
	return s, true
}
