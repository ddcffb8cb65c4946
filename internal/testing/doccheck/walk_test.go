package doccheck

import (
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/modroot"
)

// root is the module root; the test fails without one.
func root(t *testing.T) string {
	t.Helper()
	dir, wd, ok := modroot.Dir()
	if !ok {
		t.Fatalf("no go.mod above %s", wd)
	}
	return dir
}

// goFiles calls fn with the slash path, relative to the module root, of
// every .go file the go command builds or tests: testdata (unless
// withTestdata), and folders whose names start with "." or "_", are
// skipped as the go command does.
func goFiles(t *testing.T, rootDir string, withTestdata bool, fn func(rel string)) {
	t.Helper()
	err := filepath.WalkDir(rootDir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != rootDir && (name == "testdata" && !withTestdata || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(name, ".go") {
			rel, err := filepath.Rel(rootDir, path)
			if err != nil {
				return err
			}
			fn(filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
