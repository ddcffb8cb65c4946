package fold

import (
	"path/filepath"
	"testing"

	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

const corpus = "../../../shared/corpus"

func load(t *testing.T, path string, opts story.Options) *story.Story {
	t.Helper()
	st, ds := story.Load(path, opts)
	for _, d := range ds {
		if d.Severity == diag.Error {
			t.Fatalf("load %s: %s", path, d)
		}
	}
	if st == nil {
		t.Fatalf("load %s: no story", path)
	}
	return st
}

func mustFold(t *testing.T, st *story.Story) *Folded {
	t.Helper()
	f, err := New(st, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func TestDumpImportsSmoke(t *testing.T) {
	st := load(t, filepath.Join(corpus, "imports_smoke/parent"), story.Options{})
	t.Log("\n" + dump(mustFold(t, st)))
	st = load(t, filepath.Join(corpus, "frontier_event"), story.Options{})
	t.Log("\n" + dump(mustFold(t, st)))
}
