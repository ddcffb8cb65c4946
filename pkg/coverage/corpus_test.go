package coverage

import (
	"path/filepath"
	"testing"

	"kitsoki/internal/testing/golden"
	"kitsoki/internal/testing/storytest"
	"kitsoki/pkg/validate"
)

// Every format of the corpus's profile is pinned by a golden (paths
// relative to the corpus); a change to what the engine reaches, or to a
// format, shows up here as a diff to review.
func TestCorpusGoldens(t *testing.T) {
	corpus := storytest.Corpus(t, ".")
	apps, err := validate.Expand([]string{filepath.Join(corpus, "...")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	p := runCovered(t, corpus, apps...)
	if s := p.Summarize(); s.Arcs.Total == 0 || s.States.Reached == 0 {
		t.Fatalf("nothing counted: %+v", s)
	}
	for name, b := range formats(t, p) {
		golden.Check(t, "testdata/corpus/golden/profile."+name, b)
	}
}
