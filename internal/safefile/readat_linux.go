package safefile

import (
	"strings"

	"golang.org/x/sys/unix"
)

// ReadPlainAt reads name, one path component inside the open directory
// dirfd, when it is a regular file (not a symlink) of at most limit bytes,
// with ReadFile's rules: stat'ed before it is opened, what was opened the
// file the stat saw, a file that grows read whole or refused past the
// cap. ok is false for anything else and on any failure: the caller takes
// its general path, which words the error.
func ReadPlainAt(dirfd int, name string, limit int64) (data []byte, ok bool) {
	if name == "" || name == "." || name == ".." || strings.ContainsAny(name, "/\x00") {
		return nil, false
	}
	var named, st unix.Stat_t
	if unix.Fstatat(dirfd, name, &named, unix.AT_SYMLINK_NOFOLLOW) != nil || !regularSized(named.Mode, named.Size, limit) {
		return nil, false
	}
	fd, err := unix.Openat(dirfd, name, unix.O_RDONLY|unix.O_CLOEXEC|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_NOCTTY, 0)
	if err != nil {
		return nil, false
	}
	defer unix.Close(fd)
	if unix.Fstat(fd, &st) != nil || !regularSized(st.Mode, st.Size, limit) || st.Dev != named.Dev || st.Ino != named.Ino {
		return nil, false
	}
	b, err := readAll(fdReader{fd, name}, st.Size, name, limit, true)
	return b, err == nil
}
