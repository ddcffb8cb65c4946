package lint

import (
	"path/filepath"
	"testing"

	"kitsoki/internal/testing/storytest"
	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

func corpusDirs(t testing.TB) []string {
	t.Helper()
	return storytest.Subdirs(t, fixtures+"/corpus", 5)
}

// TestCorpusLoadsClean: every story the existing engine accepts loads with
// no error.
func TestCorpusLoadsClean(t *testing.T) {
	for _, dir := range corpusDirs(t) {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			st, ds := Load(dir, story.Options{})
			if st == nil {
				t.Fatal("nil story")
			}
			for _, d := range ds {
				if d.Severity == diag.Error {
					t.Errorf("unexpected error: %s", d)
				} else {
					t.Logf("warning: %s", d)
				}
			}
			if len(st.States) == 0 || st.App.ID == "" {
				t.Errorf("story not filled: %d states, id %q", len(st.States), st.App.ID)
			}
		})
	}
}

// TestConcurrentLoads: validate checks stories in parallel; Load shares no
// mutable state (run under -race).
func TestConcurrentLoads(t *testing.T) {
	dirs := corpusDirs(t)
	done := make(chan []diag.Diagnostic)
	for i := 0; i < 8; i++ {
		go func(dir string) {
			_, ds := Load(dir, story.Options{})
			done <- ds
		}(dirs[i%len(dirs)])
	}
	for i := 0; i < 8; i++ {
		if ds := <-done; diag.HasErrors(ds) {
			t.Errorf("errors under concurrency: %v", ds)
		}
	}
}
