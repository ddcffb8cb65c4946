//go:build !linux

package lsp

import (
	"io/fs"
	"time"
)

// accessTime: only Linux's is read (FuzzServer's readOutside).
func accessTime(fs.FileInfo) (time.Time, bool) { return time.Time{}, false }
