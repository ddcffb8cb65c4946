package cmd

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
)

// A run's default trace (.kitsoki/sessions/ under the working directory)
// does not move the project root: run twice in the directory of a story
// importing a sibling, then test it, and each finds the repository's root
// (the existing engine writes its traces under the user's home, so its
// runs leave the project as they found it); so do mcp serve's trace and a
// --coverprofile .kitsoki/coverage.json beside them. Before the fix, the first
// run's .kitsoki/ made the story's own directory the root and the second
// run and the test refused ../sub_story as leaving it.
func TestRunTraceKeepsProjectRoot(t *testing.T) {
	t.Parallel() // only its own subprocesses and temp dirs
	bin := buildKitsokiUnlessShort(t)
	repo := filepath.Join(t.TempDir(), "repo")
	storytest.CopyTree(t, storytest.Corpus(t, "imports_smoke"), repo)
	if out, err := exec.Command("git", "init", "-q", repo).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	parent := filepath.Join(repo, "parent")
	for i := range 2 {
		cmd := exec.Command(bin, "run", ".", "--intent", "begin_substory")
		cmd.Dir = parent
		out, _ := cmd.CombinedOutput()
		if strings.Contains(string(out), "leaves the project root") || !strings.Contains(string(out), "trace: .kitsoki/sessions/") {
			t.Fatalf("run %d in %s:\n%s", i+1, parent, out)
		}
	}
	if _, err := os.Stat(filepath.Join(parent, ".kitsoki", "sessions")); err != nil {
		t.Fatalf("the runs wrote no trace beside the story: %v", err)
	}
	// the neighbours writing there by default or by the documented
	// recipe: mcp serve's trace (stdin closed: it starts and ends), the
	// editor's coverage profile; each test after them still passes
	for _, args := range [][]string{
		{"mcp", "serve", "."},
		{"test", ".", "--coverprofile", ".kitsoki/coverage.json"},
		{"test", "."},
	} {
		c := exec.Command(bin, args...)
		c.Dir = parent
		if out, err := c.CombinedOutput(); err != nil || args[0] == "test" && !strings.Contains(string(out), "2 passed, 0 failed") {
			t.Fatalf("%s after the runs: %v\n%s", args, err, out)
		}
	}
	if ents, err := os.ReadDir(filepath.Join(parent, ".kitsoki")); err != nil || len(ents) != 2 {
		t.Fatalf(".kitsoki/ beside the story holds %v (%v), want sessions/ and coverage.json", ents, err)
	}
	// a .kitsoki/ the project wrote itself still marks a root
	storytest.WriteFile(t, filepath.Join(parent, ".kitsoki", "plugins.yaml"), "version: 1\n")
	test := exec.Command(bin, "test", ".")
	test.Dir = parent
	if out, err := test.CombinedOutput(); err == nil || !strings.Contains(string(out), "leaves the project root") {
		t.Fatalf("test under the story's own profile: %v\n%s", err, out)
	}
}
