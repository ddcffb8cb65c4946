package trace

import (
	"errors"
	"os"
	"syscall"
)

// Whence values of lseek(2) that find a sparse file's data and holes.
const (
	seekData = 3 // SEEK_DATA
	seekHole = 4 // SEEK_HOLE
)

// countNewlines counts the '\n' bytes of f's first size bytes, reading
// only its data: a hole reads as NULs and holds none, so a 1 TB sparse
// file someone else made costs what it holds on disk, not a terabyte read.
// A file system that cannot tell holes reports the file as one stretch of
// data.
func countNewlines(f *os.File, size int64, buf []byte) (int, error) {
	n := 0
	for off := int64(0); off < size; {
		start, err := f.Seek(off, seekData)
		switch {
		case errors.Is(err, syscall.ENXIO):
			return n, nil // nothing but a hole past off
		case err != nil:
			m, err := countRange(f, off, size, buf)
			return n + m, err
		}
		end, err := f.Seek(start, seekHole)
		if err != nil || end > size {
			end = size
		}
		m, err := countRange(f, start, end, buf)
		n += m
		if err != nil {
			return n, err
		}
		off = end
	}
	return n, nil
}
