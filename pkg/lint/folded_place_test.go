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

// A host interface of an imported child is named by its lifted name, two
// levels down too: upstream's `host_interface "mid__kid__vcs": no default
// and no host_binding override` (probe hunt118 hi; its interfaces stage
// stops the load before the checks imported-place records).
func TestImportedInterfaceLiftedName(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "app.yaml", "app: {id: p}\nintents: {go: {}}\nimports:\n  mid: {source: ./mid}\nroot: s\nstates:\n  s:\n    on:\n      go: [{target: mid}]\n")
	write(t, dir, "mid/app.yaml", "app: {id: m}\nintents: {m: {}}\nimports:\n  kid: {source: ./kid}\nroot: s\nstates:\n  s:\n    on:\n      m: [{target: kid}]\n")
	write(t, dir, "mid/kid/app.yaml", "app: {id: k}\nhost_interfaces:\n  vcs:\n    description: t\n    operations: {get: {input: {id: string}, output: {t: object}}}\nroot: a\nstates:\n  a: {}\n")
	_, ds := Load(dir, story.Options{})
	if len(ds) != 1 || ds[0].Message != `host_interface "mid__kid__vcs": no default and no host_binding override` || !strings.HasSuffix(ds[0].File, "mid/kid/app.yaml") {
		t.Errorf("want upstream's one error at the child's line, got:\n%s", render(ds))
	}
}
