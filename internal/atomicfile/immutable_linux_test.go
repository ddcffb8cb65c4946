package atomicfile

import (
	"os"
	"testing"

	"golang.org/x/sys/unix"
)

// fsImmutableFL is FS_IMMUTABLE_FL (linux/fs.h): no entry of the directory
// can be created, removed or renamed, even by root.
const fsImmutableFL = 0x10

// makeUnwritable makes dir a directory in which root cannot create a file
// (a read-only mode does not stop root): the immutable attribute, removed
// again before t's temporary directories are. An error means this file
// system or this root (without CAP_LINUX_IMMUTABLE) cannot set it.
func makeUnwritable(t *testing.T, dir string) error {
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
