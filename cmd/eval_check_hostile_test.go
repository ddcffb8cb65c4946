package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
)

// TestEvalCheckOneLinePerProblem: a repository's dataset file named with a
// newline and a workflow command cannot add a line to eval check's
// problems (human or github): the path a message quotes is escaped as
// every other printed field (before, 'x\n::error::forged.yaml' split
// the message over two lines, the second reading as a command).
func TestEvalCheckOneLinePerProblem(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "story")
	storytest.CopyTree(t, evCorpus, dir)
	ds, err := os.ReadFile(filepath.Join(dir, "evals", "merge_judge.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	evil := filepath.Join(dir, "evals", "x\n::error::forged.yaml")
	missing := strings.Replace(string(ds), "evidence: evals/reports/merge_judge/latest.json", "evidence: evals/reports/none.json", 1)
	if missing == string(ds) {
		t.Fatal("the corpus dataset's evidence line moved: update this test")
	}
	if err := os.WriteFile(evil, []byte(missing), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, format := range []string{"human", "github"} {
		_, out, errOut := runCmd(t, "eval", "check", "--format", format, dir)
		all := out + errOut
		if !strings.Contains(all, "report not found") {
			t.Fatalf("--format %s: no problem reported:\n%s", format, all)
		}
		for l := range strings.SplitSeq(all, "\n") {
			if strings.HasPrefix(l, "::error::") || strings.HasPrefix(l, "\\x3a:error::forged") || strings.HasPrefix(l, "forged.yaml") {
				t.Errorf("--format %s: a line of its own from the file name: %q\n%s", format, l, all)
			}
		}
	}
}
