package lint

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

// TestImportedPlaceGolden: an error found in an imported child names its
// place as upstream does, in the folded story (`state "kid.a" intent
// "kid__go2" effects[1]:`, two levels down `state "mid.deep.a" intent
// "mid__deep__d"`, an importer's intent `mid__m`; a child's agent and
// meta mode by their lifted names, `agents.kid__rev`,
// `meta_modes.kid__help`, among the folded story's agents), while its position
// stays the child's own file and line. upstream.txt is the existing
// engine's validate output on the story, recorded; every place it names
// starts one of our errors. expect.golden pins ours (regenerate with
// -run ImportedPlaceGolden -update).
func TestImportedPlaceGolden(t *testing.T) {
	dir := filepath.Join(fixtures, "imported-place")
	_, ds := Load(dir, story.Options{LookupEnv: noEnv})
	checkGoldenAt(t, filepath.Join(dir, "expect.golden"), ds)
	up, err := os.ReadFile(filepath.Join(dir, "upstream.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var places int
	for line := range strings.Lines(string(up)) {
		msg, ok := strings.CutPrefix(strings.TrimSpace(line), "• app.yaml: ")
		if !ok {
			continue
		}
		place, _, _ := strings.Cut(msg, ": ")
		places++
		if !slices.ContainsFunc(ds, func(d diag.Diagnostic) bool {
			return d.Severity == diag.Error && strings.HasPrefix(d.Message, place+": ")
		}) {
			t.Errorf("no error starts with upstream's place %q", place)
		}
	}
	if places < 13 {
		t.Errorf("upstream.txt names %d places, want the 13 recorded", places)
	}
}
