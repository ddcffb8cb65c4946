//go:build !linux

package trace

import "os"

// countNewlines counts the '\n' bytes of f's first size bytes.
func countNewlines(f *os.File, size int64, buf []byte) (int, error) {
	return countRange(f, 0, size, buf)
}
