package storytest

import (
	"os"
	"path"
	"path/filepath"
	"testing"

	"kitsoki/internal/testing/modroot"
)

// Corpus returns the folder of the shared upstream corpus story name
// (shared/corpus/<name> beside the repository root, the folder holding
// go.mod), skipping the test when the corpus is not there.
func Corpus(t testing.TB, name string) string {
	t.Helper()
	return Shared(t, path.Join("corpus", name))
}

// CorpusDir is the shared corpus folder ("" when it is not here). It is
// one tree of stories without a .git or .kitsoki/ marker (its stories
// import their siblings): a test loads its stories with it in
// story.Options.Trees, as `kitsoki validate corpus/...` takes them.
func CorpusDir() string { return SharedDir("corpus") }

// Shared returns shared/<rel> beside the repository root (the upstream
// corpus, reference probes), skipping the test when it is not there.
func Shared(t testing.TB, rel string) string {
	t.Helper()
	if src := SharedDir(rel); src != "" {
		return src
	}
	t.Skipf("the shared folder %s is not here", rel)
	return ""
}

// SharedDir is shared/<rel> (slash-separated) beside the repository root
// (the folder holding go.mod), or "" when it is not there.
func SharedDir(rel string) string {
	root, _, ok := modroot.Dir()
	if !ok {
		return ""
	}
	src := filepath.Join(filepath.Dir(root), "shared", filepath.FromSlash(rel))
	if _, err := os.Stat(src); err != nil {
		return ""
	}
	return src
}
