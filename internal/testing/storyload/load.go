package storyload

import (
	"os"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
	"kitsoki/pkg/diag"
	"kitsoki/pkg/lint"
	"kitsoki/pkg/story"
)

// NoEnv is a story.Options LookupEnv that finds no variable: a test's load
// does not depend on the environment it runs in.
func NoEnv(string) (string, bool) { return "", false }

// Load loads the story at path (a folder or an app.yaml) with opts and fails
// the test, listing every diagnostic, when the loader reports an error or
// returns no story.
//
// Without a Root or Trees in opts, the shared corpus and the temporary
// directory are trees (Trees): the corpus's stories and the stories tests
// write import their siblings, with no .git or .kitsoki/ above them.
func Load(t testing.TB, path string, opts story.Options) *story.Story {
	t.Helper()
	if opts.Root == "" && len(opts.Trees) == 0 {
		opts.Trees = Trees()
	}
	st, ds := lint.Load(path, opts)
	if st == nil || diag.HasErrors(ds) {
		var b strings.Builder
		for _, d := range ds {
			b.WriteString("\n" + d.String())
		}
		if st == nil {
			b.WriteString("\n(no story)")
		}
		t.Fatalf("load %s:%s", path, b.String())
	}
	return st
}

// Trees are the shared corpus's folder (when it is here) and the
// temporary directory: the trees of stories tests load, as `kitsoki
// validate DIR/...` would name them.
func Trees() []string {
	out := []string{os.TempDir()}
	if c := storytest.CorpusDir(); c != "" {
		out = append(out, c)
	}
	return out
}

// LoadNoEnv is Load with a LookupEnv that finds nothing (NoEnv).
func LoadNoEnv(t testing.TB, path string) *story.Story {
	t.Helper()
	return Load(t, path, story.Options{LookupEnv: NoEnv})
}
