package phases

import (
	"testing"

	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

// load loads a story directory; any loader error fails the test.
func load(t *testing.T, dir string) *story.Story {
	t.Helper()
	st, ds := story.Load(dir, story.Options{LookupEnv: func(string) (string, bool) { return "", false }})
	for _, d := range ds {
		if d.Severity == diag.Error {
			t.Fatalf("load %s: %v", dir, d)
		}
	}
	if st == nil {
		t.Fatalf("load %s: no story", dir)
	}
	return st
}
