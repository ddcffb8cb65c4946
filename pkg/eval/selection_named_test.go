package eval

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
)

// TestSelectionNamesEvalsAsGiven: a selection: finding names evals/, the
// dataset that does not load and the story to give eval check as the
// command named the story (relative to the working directory), as it
// names the files. It quoted the absolute directory.
func TestSelectionNamesEvalsAsGiven(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "s")
	storytest.CopyTree(t, "testdata/pr-refinement", dir)
	t.Chdir(base)
	check := func(t *testing.T, want ...string) {
		t.Helper()
		ds, err := Check("s", nil)
		if err != nil {
			t.Fatal(err)
		}
		var msgs []string // validate's: the story loaded as named
		for _, d := range append(ds, CheckSelections(loadStory(t, "s"))...) {
			msgs = append(msgs, d.Message)
		}
		out := strings.Join(msgs, "\n")
		if strings.Contains(out, base) {
			t.Errorf("a finding names the absolute directory %s:\n%s", base, out)
		}
		for _, w := range want {
			if strings.Count(out, w) != 2 {
				t.Errorf("want %q from eval check and validate in:\n%s", w, out)
			}
		}
	}
	ds := filepath.Join(dir, "evals", "merge_judge.yaml")
	if err := os.WriteFile(ds, []byte("kind: agent_eval\ncall: [\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Run("broken dataset", func(t *testing.T) {
		check(t, "loads under s/evals, and 1 dataset(s) there do not load (s/evals/merge_judge.yaml: parse YAML", "kitsoki eval check s says how")
	})
	if err := os.Remove(ds); err != nil {
		t.Fatal(err)
	}
	t.Run("no dataset", func(t *testing.T) {
		check(t, `no eval dataset for call "merge_judge" under s/evals (add evals/merge_judge.yaml`)
	})
}
