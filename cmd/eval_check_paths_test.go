package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
)

// TestEvalPathsAsValidate: eval check names a finding's file as
// kitsoki validate does, in every format: as the command line named the
// story (relative to the working directory) in human, json and github,
// relative to the repository root in sarif and codeclimate. Before, it
// printed the absolute path, so GitHub put no annotation on the diff.
func TestEvalPathsAsValidate(t *testing.T) {
	repo := t.TempDir()
	if err := os.Mkdir(filepath.Join(repo, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	story := filepath.Join(repo, "stories", "pr-refinement")
	storytest.CopyTree(t, evCorpus, story)
	merge := filepath.Join(story, "rooms", "merge.yaml")
	src, err := os.ReadFile(merge)
	if err != nil {
		t.Fatal(err)
	}
	pinned := strings.Replace(string(src), "model: syn:small:text", "model: syn:tiny:text", 1)
	if pinned == string(src) {
		t.Fatal("the corpus pin moved: update this test")
	}
	if err := os.WriteFile(merge, []byte(pinned), 0o644); err != nil {
		t.Fatal(err)
	}
	// From stories/, naming the story pr-refinement: the file as named,
	// or from the repository root.
	t.Chdir(filepath.Join(repo, "stories"))
	for format, want := range map[string]string{
		"human":       "pr-refinement/rooms/merge.yaml:124:11: error:",
		"json":        `"file": "pr-refinement/rooms/merge.yaml"`,
		"github":      "::error file=pr-refinement/rooms/merge.yaml,line=124,",
		"sarif":       `"uri": "stories/pr-refinement/rooms/merge.yaml"`,
		"codeclimate": `"path": "stories/pr-refinement/rooms/merge.yaml"`,
	} {
		code, out, errOut := runCmd(t, "eval", "check", "--format", format, "pr-refinement")
		if code != 1 || !strings.Contains(out, want) {
			t.Errorf("--format %s: exit %d, want %q in:\n%s%s", format, code, want, out, errOut)
		}
		if strings.Contains(out, story) {
			t.Errorf("--format %s names the absolute path %s:\n%s", format, story, out)
		}
	}
	// eval show and eval run name a dataset's findings the same way
	// (they printed the absolute path, while a dataset that did not parse
	// was named as given).
	ds := filepath.Join("pr-refinement", "evals", "merge_judge.yaml")
	want := "WARN: " + ds + ":18:22: matrix.profiles[1] \"codex-native\""
	if _, out, _ := runCmd(t, "eval", "show", ds); !strings.Contains(out, want) {
		t.Errorf("eval show: want %q in:\n%s", want, out)
	}
	if _, _, errOut := runCmd(t, "eval", "run", "--no-progress", "-o", filepath.Join(t.TempDir(), "r.json"), ds); !strings.Contains(errOut, "ERROR: "+ds+":18:22: ") {
		t.Errorf("eval run: want the finding at %s:18:22 in:\n%s", ds, errOut)
	}
}
