package eval

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
)

// TestReportsDirLinkedOutTellsNothing: a dataset's reports/<call>
// directory linked out of the project reads the same in eval list whether
// its target holds a latest.json, holds no report or does not exist; it
// was listed through the link, so the first warned and the others read
// "unmeasured", telling a repository what the machine's directories hold
// (red team 47).
func TestReportsDirLinkedOutTellsNothing(t *testing.T) {
	src, err := filepath.Abs(filepath.Join("testdata", "pr-refinement"))
	if err != nil {
		t.Fatal(err)
	}
	latest, err := os.ReadFile(filepath.Join(src, "evals", "reports", "merge_judge", "latest.json"))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, target := range []string{"latest", "empty", "dangling"} {
		top := t.TempDir()
		repo := filepath.Join(top, "repo")
		storytest.CopyTree(t, src, repo)
		if err := os.MkdirAll(filepath.Join(repo, ".git"), 0o755); err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(top, "outside")
		switch target {
		case "latest":
			storytest.WriteFile(t, filepath.Join(out, "latest.json"), string(latest))
		case "empty":
			storytest.WriteFile(t, filepath.Join(out, "other.txt"), "x")
		}
		reports := filepath.Join(repo, "evals", "reports", "merge_judge")
		if err := os.RemoveAll(reports); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(out, reports); err != nil {
			t.Fatal(err)
		}
		var said []string
		rows := List([]string{filepath.Join(repo, "evals", "merge_judge.yaml")}, func(_ string, err error) { said = append(said, err.Error()) })
		for _, r := range rows {
			said = append(said, fmt.Sprint(r.Status))
		}
		got[target] = strings.ReplaceAll(strings.Join(said, "\n"), top, "TOP")
	}
	if got["latest"] != got["empty"] || got["empty"] != got["dangling"] || !strings.Contains(got["dangling"], "leading out") {
		t.Errorf("reports linked out: to a latest.json\n%s\nto no report\n%s\ndangling\n%s\nwant one refusal", got["latest"], got["empty"], got["dangling"])
	}
}
