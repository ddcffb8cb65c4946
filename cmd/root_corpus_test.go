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
// their siblings in. Alone, a story importing a sibling is refused, but
// for `test flows APP.yaml`, the existing engine's spelling of a run of one
// story of such a tree: there the story's parent folder is the tree (a
// fixture the existing engine passes passes here). A marker above the
// tree still decides.
func TestCorpusCopyWithoutMarker(t *testing.T) {
	t.Parallel() // only its own subprocesses and temp dirs
	bin := buildKitsokiUnlessShort(t)
	src := storytest.Corpus(t, "")
	dir := filepath.Join(t.TempDir(), "corpus")
	storytest.NoMarkerAbove(t, dir)
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
	app := filepath.Join(dir, "frontier_event", "app.yaml")
	if res, err := exec.Command(bin, "test", "flows", app).CombinedOutput(); err != nil || !strings.Contains(string(res), "2 passed, 0 failed") {
		t.Fatalf("test flows alone: %v\n%s", err, res)
	}
	if res, err := exec.Command(bin, "test", filepath.Join(dir, "frontier_event")).CombinedOutput(); err == nil || !strings.Contains(string(res), "leaves the project root") {
		t.Fatalf("test DIR alone: %v\n%s", err, res)
	}
	storytest.WriteFile(t, filepath.Join(dir, "frontier_event", ".kitsoki", "plugins.yaml"), "version: 1\n")
	if res, err := exec.Command(bin, "test", "flows", app).CombinedOutput(); err == nil || !strings.Contains(string(res), "leaves the project root") {
		t.Fatalf("test flows under a marker: %v\n%s", err, res)
	}
}
