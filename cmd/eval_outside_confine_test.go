package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// eval run started from outside the project (a CI step in the checkout's
// parent, or any other directory) still refuses a repository whose
// reports/ links outside its root: the check is made against the
// dataset's project, not the working directory's. Two places to run
// from: a directory that holds the link's target (the working directory's
// root would contain the escape) and an unrelated one (the report path is
// outside the working directory's root, so it used to go unchecked).
func TestEvalDefaultReportsLinkOutRefusedFromOutside(t *testing.T) {
	for _, from := range []string{"parent", "elsewhere"} {
		t.Run(from, func(t *testing.T) {
			base := t.TempDir()
			dir, ds, cas := evStory(t, "  - {name: one, args: {x: a}, expect: {word: a}}\n")
			proj := filepath.Join(base, "proj")
			if err := os.Rename(dir, proj); err != nil {
				t.Fatal(err)
			}
			ds = filepath.Join(proj, strings.TrimPrefix(ds, dir))
			cas = filepath.Join(proj, strings.TrimPrefix(cas, dir))
			outside := filepath.Join(base, "outside")
			for _, d := range []string{filepath.Join(proj, ".git"), outside} {
				if err := os.MkdirAll(d, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			symlinkT(t, outside, filepath.Join(proj, "evals", "reports"))
			if from == "parent" {
				t.Chdir(base)
			} else {
				t.Chdir(t.TempDir())
			}
			code, stdout, stderr := runCmd(t, "eval", "run", "--cassette", cas, ds)
			if code != 2 || !strings.Contains(stderr, "leading out of the project root "+proj) {
				t.Errorf("exit %d, want 2 and a refusal naming the dataset's root %s:\n%s%s", code, proj, stdout, stderr)
			}
			if ents, err := os.ReadDir(outside); err != nil || len(ents) != 0 {
				t.Errorf("something was written outside the project: %v %v", ents, err)
			}
		})
	}
}
