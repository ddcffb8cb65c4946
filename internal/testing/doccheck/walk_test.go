package doccheck

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/modroot"
)

// isTest keeps a _test.go file.
func isTest(rel string) bool { return strings.HasSuffix(rel, "_test.go") }

// root is the module root; the test fails without one.
func root(t *testing.T) string {
	t.Helper()
	dir, wd, ok := modroot.Dir()
	if !ok {
		t.Fatalf("no go.mod above %s", wd)
	}
	return dir
}

// sources calls fn with the slash path, relative to the module root, and
// the bytes of every .go file the go command builds or tests whose path
// keep takes: testdata (unless withTestdata), and folders whose names
// start with "." or "_", are skipped as the go command does.
func sources(t *testing.T, rootDir string, withTestdata bool, keep func(rel string) bool, fn func(rel string, src []byte)) {
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
			if rel = filepath.ToSlash(rel); !keep(rel) {
				return nil
			}
			src, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			fn(rel, src)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
