package cmd

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
)

// The corpus copied where no .git or .kitsoki/ lies above it still
// validates as before (its only errors are the two deliberately cyclic
// stories) and tests green: DIR/... names the tree its stories import
// their siblings in. Alone, a story importing a sibling is refused.
func TestCorpusCopyWithoutMarker(t *testing.T) {
	bin := buildKitsokiUnlessShort(t)
	src := storytest.Corpus(t, "")
	dir := filepath.Join(t.TempDir(), "corpus")
	storytest.CopyTree(t, src, dir)
	out, _ := exec.Command(bin, "validate", "--format", "json", dir+"/...").Output()
	if strings.Contains(string(out), "outside-root") || strings.Count(string(out), `"severity": "error"`)+strings.Count(string(out), `"severity":"error"`) != 4 {
		t.Fatalf("validate: %s", out)
	}
	res, err := exec.Command(bin, "test", dir+"/...").CombinedOutput()
	if err != nil || !strings.Contains(string(res), " passed, 0 failed") {
		t.Fatalf("test: %v\n%s", err, res)
	}
	alone, err := exec.Command(bin, "validate", filepath.Join(dir, "frontier_event")).CombinedOutput()
	if err == nil || !strings.Contains(string(alone), `imports.bandits: source "../robbery" leaves the project root`) {
		t.Fatalf("alone: %v\n%s", err, alone)
	}
	if ok, err := exec.Command(bin, "validate", "--root", dir, filepath.Join(dir, "frontier_event")).CombinedOutput(); err != nil {
		t.Fatalf("--root: %v\n%s", err, ok)
	}
}
