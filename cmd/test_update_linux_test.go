package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// An update whose file cannot be written (a full disk, here a flows
// directory where nothing can be created) leaves the fixture as it was,
// names the file and why, and its summary counts nothing as updated.
func TestUpdateCommandUnwritableCountsNothing(t *testing.T) {
	dir := testStory(t, map[string]string{"drift.yaml": driftFlow})
	path := filepath.Join(dir, "flows", "drift.yaml")
	if err := makeImmutable(t, filepath.Dir(path)); err != nil {
		t.Skipf("cannot make the flows directory unwritable here: %v", err)
	}
	code, out, errOut := runCmd(t, "test", dir, "--update")
	if code != exitUsageEnv {
		t.Errorf("exit %d, want 2\n%s\n%s", code, out, errOut)
	}
	if !strings.Contains(errOut, path+": not updated: ") {
		t.Errorf("stderr does not name the file not written:\n%s", errOut)
	}
	if !strings.HasSuffix(out, "0 fixtures updated, 0 expectations changed, 1 file not written (see above)\n") {
		t.Errorf("the summary counts what was not written:\n%s", out)
	}
	if b, _ := os.ReadFile(path); string(b) != driftFlow {
		t.Errorf("the file changed:\n%s", b)
	}
}

// makeImmutable sets dir's immutable attribute (no entry can be created
// in it, even by root, whom a read-only mode does not stop) until t ends;
// an error means this file system or root cannot.
func makeImmutable(t *testing.T, dir string) error {
	f, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer f.Close()
	flags, err := unix.IoctlGetUint32(int(f.Fd()), unix.FS_IOC_GETFLAGS)
	if err != nil {
		return err
	}
	const immutable = 0x10 // FS_IMMUTABLE_FL
	if err := unix.IoctlSetPointerInt(int(f.Fd()), unix.FS_IOC_SETFLAGS, int(flags|immutable)); err != nil {
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
