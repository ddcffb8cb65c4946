package schema

import (
	"kitsoki/internal/safefile"
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
	if strings.ContainsRune(rel, '/') {
		return nil, false // not directly inside: the os.Root walks it
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
	return safefile.ReadPlainAt(d.fd, rel, limit)
}
