package schema

import (
	"strings"

	"golang.org/x/sys/unix"
)

// dirFD is a plain descriptor on the schemas directory, for reading the
// common case cheaply: a regular file under the cap named directly inside
// it. A name of one component opened with O_NOFOLLOW relative to the
// directory cannot leave it; anything else (a subdirectory path, a
// symlink, a missing or irregular file, a failed read) is left to the
// os.Root, which words the error.
type dirFD struct {
	fd    int
	tried bool
}

var noDirFD = dirFD{fd: -1}

func (d *dirFD) close() {
	if d.fd >= 0 {
		_ = unix.Close(d.fd)
	}
}

// readPlain reads rel when it is a plain regular file directly inside dir
// of at most limit bytes; ok is false for everything else.
func (d *dirFD) readPlain(dir, rel string, limit int64) (data []byte, ok bool) {
	if rel == "" || rel == "." || rel == ".." || strings.ContainsRune(rel, '/') || strings.ContainsRune(rel, 0) {
		return nil, false
	}
	if !d.tried {
		d.tried = true
		fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
		if err != nil {
			return nil, false
		}
		d.fd = fd
	}
	if d.fd < 0 {
		return nil, false
	}
	// As safefile: the name is stat'ed first, so nothing but a regular
	// file is ever opened, and what was opened must be what the stat saw.
	var named, st unix.Stat_t
	if unix.Fstatat(d.fd, rel, &named, unix.AT_SYMLINK_NOFOLLOW) != nil || !regularUnder(&named, limit) {
		return nil, false
	}
	fd, err := unix.Openat(d.fd, rel, unix.O_RDONLY|unix.O_CLOEXEC|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_NOCTTY, 0)
	if err != nil {
		return nil, false
	}
	defer unix.Close(fd)
	if unix.Fstat(fd, &st) != nil || !regularUnder(&st, limit) || st.Dev != named.Dev || st.Ino != named.Ino {
		return nil, false
	}
	// One byte more than the stat's size sees the end without growing.
	b := make([]byte, 0, st.Size+1)
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		n, err := unix.Read(fd, b[len(b):cap(b)])
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return nil, false
		}
		if n == 0 {
			break
		}
		b = b[:len(b)+n]
		if int64(len(b)) > limit {
			return nil, false // grew past the cap: the os.Root words it
		}
		if int64(len(b)) == st.Size && len(b) < cap(b) {
			// Read short of the buffer at the size the stat gave: the
			// whole file (one that grew fills the spare byte).
			break
		}
	}
	return b, true
}

func regularUnder(st *unix.Stat_t, limit int64) bool {
	return st.Mode&unix.S_IFMT == unix.S_IFREG && st.Size <= limit
}
