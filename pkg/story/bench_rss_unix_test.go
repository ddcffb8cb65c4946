//go:build unix

package story

import (
	"os"
	"runtime"
	"syscall"
)

// maxRSS returns the peak resident set of an exited child process, in
// bytes (ru_maxrss: kilobytes on Linux and the BSDs, bytes on macOS).
func maxRSS(ps *os.ProcessState) (int64, bool) {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok || ru == nil || ru.Maxrss <= 0 {
		return 0, false
	}
	if runtime.GOOS == "darwin" || runtime.GOOS == "ios" {
		return int64(ru.Maxrss), true
	}
	return int64(ru.Maxrss) << 10, true
}
