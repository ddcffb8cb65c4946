package unwritable

import (
	"os"
	"testing"

	"golang.org/x/sys/unix"
)

// fsImmutableFL is FS_IMMUTABLE_FL (linux/fs.h): no entry of the directory
// can be created, removed or renamed, even by root.
const fsImmutableFL = 0x10

// immutable sets dir's immutable attribute until t ends.
func immutable(t testing.TB, dir string) error {
	f, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer f.Close()
	flags, err := unix.IoctlGetUint32(int(f.Fd()), unix.FS_IOC_GETFLAGS)
	if err != nil {
		return err
	}
	if err := unix.IoctlSetPointerInt(int(f.Fd()), unix.FS_IOC_SETFLAGS, int(flags|fsImmutableFL)); err != nil {
		return err
	}
	t.Cleanup(func() {
		g, err := os.Open(dir)
		if err != nil {
			t.Errorf("clearing the immutable attribute of %s: %v", dir, err)
			return
		}
		defer g.Close()
		if err := unix.IoctlSetPointerInt(int(g.Fd()), unix.FS_IOC_SETFLAGS, int(flags)); err != nil {
			t.Errorf("clearing the immutable attribute of %s: %v", dir, err)
		}
	})
	return nil
}
