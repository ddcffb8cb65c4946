package modroot

import (
	"os"
	"path/filepath"
	"testing"
)

// From this package's folder the root is two folders up the tree
// (internal/testing/modroot), and holds go.mod.
func TestDirFindsGoMod(t *testing.T) {
	root, wd, ok := Dir()
	if !ok {
		t.Fatal("no go.mod found above the package folder")
	}
	if rel, err := filepath.Rel(root, wd); err != nil || filepath.ToSlash(rel) != "internal/testing/modroot" {
		t.Errorf("root %s, working folder %s: rel %q (%v)", root, wd, rel, err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Error(err)
	}
}

// Outside any module there is no root.
func TestDirOutsideAModule(t *testing.T) {
	t.Chdir(t.TempDir())
	if root, _, ok := Dir(); ok {
		if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
			t.Errorf("root %s has no go.mod", root)
		}
		t.Skipf("a go.mod above the temporary folder (%s)", root)
	}
}
