package storyload

import (
	"strings"
	"testing"

	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

// NoEnv is a story.Options LookupEnv that finds no variable: a test's load
// does not depend on the environment it runs in.
func NoEnv(string) (string, bool) { return "", false }

// Load loads the story at path (a folder or an app.yaml) with opts and fails
// the test, listing every diagnostic, when the loader reports an error or
// returns no story.
func Load(t testing.TB, path string, opts story.Options) *story.Story {
	t.Helper()
	st, ds := story.Load(path, opts)
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

// LoadNoEnv is Load with a LookupEnv that finds nothing (NoEnv).
func LoadNoEnv(t testing.TB, path string) *story.Story {
	t.Helper()
	return Load(t, path, story.Options{LookupEnv: NoEnv})
}
