//go:build unix

package safefile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestDirRootRefusesAFIFO: a FIFO (or a link to one) where a directory is
// expected is refused unopened; os.OpenRoot and Root.OpenRoot open it and
// wait for a writer forever (red team 47: schemas/ a FIFO hung validate).
func TestDirRootRefusesAFIFO(t *testing.T) {
	dir := t.TempDir()
	makeFIFO(t, dir)
	if err := os.Symlink("fifo", filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	for _, name := range []string{"fifo", "link"} {
		check := func(what string, r *os.Root, err error) {
			if r != nil {
				r.Close()
			}
			if err == nil || !errors.Is(err, syscall.ENOTDIR) || !strings.Contains(err.Error(), "a FIFO") {
				t.Errorf("%s(%s) = %v; want not a directory (a FIFO)", what, name, err)
			}
		}
		guard(t, name, func() {
			r, err := OpenDirRoot(filepath.Join(dir, name))
			check("OpenDirRoot", r, err)
		})
		guard(t, name, func() {
			r, err := OpenSubRoot(root, name)
			check("OpenSubRoot", r, err)
		})
	}
	r, err := OpenSubRoot(root, ".")
	if err != nil {
		t.Fatalf("OpenSubRoot(.) = %v", err)
	}
	r.Close()
}
