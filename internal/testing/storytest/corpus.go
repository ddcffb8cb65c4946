package storytest

import (
	"os"
	"path/filepath"
	"testing"
)

// Corpus returns the folder of the shared upstream corpus story name
// (shared/corpus/<name> beside the repository root, the folder holding
// go.mod), skipping the test when the corpus is not there.
func Corpus(t testing.TB, name string) string {
	t.Helper()
	dir, err := os.Getwd()
	for err == nil {
		if _, serr := os.Stat(filepath.Join(dir, "go.mod")); serr == nil {
			src := filepath.Join(filepath.Dir(dir), "shared", "corpus", filepath.FromSlash(name))
			if _, serr := os.Stat(src); serr == nil {
				return src
			}
			break
		}
		up := filepath.Dir(dir)
		if up == dir {
			break
		}
		dir = up
	}
	t.Skipf("the shared corpus story %s is not here", name)
	return ""
}
