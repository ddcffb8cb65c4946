//go:build unix

package cmd

import (
	"os"
	"runtime"
	"syscall"
)

// maxRSS is a finished process's peak resident set in bytes (0 if unknown).
func maxRSS(ps *os.ProcessState) int64 {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0
	}
	if runtime.GOOS == "darwin" {
		return ru.Maxrss
	}
	return ru.Maxrss << 10
}
