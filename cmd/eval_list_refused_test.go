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
	t.Parallel() // in process, its own temp dirs
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

// TestEvalListCountNamesRefused: with two refused datasets and two empty
// ones, eval list keeps upstream's count (2: the empty ones do not stop
// its list) and says which two it counts and that the other WARN lines
// are listed past. Before, "2 dataset(s) could not be read (the WARN
// lines above name where)" followed four WARN lines.
func TestEvalListCountNamesRefused(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "story")
	storytest.CopyTree(t, evCorpus, dir)
	storytest.WriteTree(t, dir, map[string]string{
		"evals/a_broken.yaml": "kind: agent_eval\napp: [\n",
		"evals/b_dup.yaml":    "kind: agent_eval\ncall: a\ncall: b\n",
		"evals/c_empty.yaml":  "",
		"evals/d_empty.yaml":  "",
	})
	code, _, errOut := runCmd(t, "eval", "list", dir)
	ev := filepath.Join(dir, "evals")
	want := "kitsoki: eval list: 2 dataset(s) could not be read: " + filepath.Join(ev, "a_broken.yaml") + ", " + filepath.Join(ev, "b_dup.yaml") +
		" (their WARN lines above name where; the other 2 WARN line(s) are listed past, as the existing engine lists past them); fix them"
	if code != exitFinding || strings.Count(errOut, "WARN: ") != 4 || !strings.Contains(errOut, want) {
		t.Errorf("exit %d, want %d; stderr:\n%s\nwant four WARN lines and %q", code, exitFinding, errOut, want)
	}
}
