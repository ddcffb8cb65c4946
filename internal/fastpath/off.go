package fastpath

import (
	"os"
	"strings"
)

// Off reports whether the environment variable name turns a fast path
// off: 0, false, off or no, in any case. It reads the environment on every
// call (no process-wide state for tests to reset).
func Off(name string) bool {
	switch strings.ToLower(os.Getenv(name)) {
	case "0", "false", "off", "no":
		return true
	}
	return false
}
