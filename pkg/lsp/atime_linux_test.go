package lsp

import (
	"io/fs"
	"syscall"
	"time"
)

// accessTime is fi's last access time.
func accessTime(fi fs.FileInfo) (time.Time, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return time.Time{}, false
	}
	return time.Unix(st.Atim.Unix()), true
}
