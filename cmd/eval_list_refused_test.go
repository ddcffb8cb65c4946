package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
)

// TestEvalListRefusedDatasetExits1: a dataset the existing engine's loader
// refuses whole (a key written twice, broken YAML, a list) is listed
// invalid beside the others, with a WARN naming its place, and eval list
// exits 1 as upstream's does (it stops there); an empty dataset, which
// upstream lists invalid, leaves the exit status 0.
func TestEvalListRefusedDatasetExits1(t *testing.T) {
	for _, c := range []struct {
		name, text string
		code       int
		warn       string
	}{
		{"repeated key", "kind: agent_eval\ncall: a\ncall: b\n", exitFinding, `bad.yaml:3:1: mapping key "call" already defined at line 2, column 1`},
		{"syntax", "kind: agent_eval\napp: [\n", exitFinding, "bad.yaml: parse YAML: "},
		{"list", "- a\n- b\n", exitFinding, "bad.yaml:1:1: a dataset must be a YAML mapping"},
		{"empty", "", exitOK, "bad.yaml: empty file"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "story")
			storytest.CopyTree(t, evCorpus, dir)
			if err := os.WriteFile(filepath.Join(dir, "evals", "bad.yaml"), []byte(c.text), 0o644); err != nil {
				t.Fatal(err)
			}
			for _, args := range [][]string{{"eval", "list", dir}, {"eval", "list", "--json", dir}} {
				code, out, errOut := runCmd(t, args...)
				if code != c.code || !strings.Contains(errOut, c.warn) {
					t.Errorf("%v: exit %d, want %d; stderr:\n%s", args, code, c.code, errOut)
				}
				if !strings.Contains(out, "bad.yaml") || !strings.Contains(out, "merge_judge.yaml") {
					t.Errorf("%v: not every dataset listed:\n%s", args, out)
				}
			}
		})
	}
}
