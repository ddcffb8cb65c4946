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
	if src := corpusPath(name); src != "" {
		return src
	}
	t.Skipf("the shared corpus story %s is not here", name)
	return ""
}

// CorpusDir is the shared corpus folder ("" when it is not here). It is
// one tree of stories without a .git or .kitsoki/ marker (its stories
// import their siblings): a test loads its stories with it in
// story.Options.Trees, as `kitsoki validate corpus/...` takes them.
func CorpusDir() string { return corpusPath("") }

// corpusPath is shared/corpus/<name> beside the repository root, or "".
func corpusPath(name string) string {
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
	return ""
}
