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
	matchUpstreamPlaces(t, ds, filepath.Join(dir, "upstream.txt"), 13)
}

// TestParsePlaceGolden: the load errors pkg/story finds while parsing
// that upstream names by place (a view element's structure in a state's
// view and a transition's, an intent's and a state intent's synonyms)
// name it as upstream does, `state "done": view[0] (kv):`, `state "home"
// intent "put": transition view: view[0] (banner):`, `intent "put" slot
// "v":`, `state "home" intent "loc":` (were `states.done.view[0] (kv)`,
// `intents.put.slots.v slot "v"`: probes hunt118 gl2 000, 032), in an
// imported child as the fold names them (`state "kid.b"`, `intent
// "kid__put"`), and a checkpoint intent no phase uses is not checked, as
// upstream loads it (probe hunt123 p2). upstream.txt is the existing
// engine's validate output on the story, recorded (regenerate ours with
// -run ParsePlaceGolden -update).
func TestParsePlaceGolden(t *testing.T) {
	dir := filepath.Join(fixtures, "parse-place")
	_, ds := Load(dir, story.Options{LookupEnv: noEnv})
	checkGoldenAt(t, filepath.Join(dir, "expect.golden"), ds)
	errs := 0
	for _, d := range ds {
		if d.Severity == diag.Error {
			errs++
		}
	}
	if n := matchUpstreamPlaces(t, ds, filepath.Join(dir, "upstream.txt"), 14); errs != n {
		t.Errorf("%d errors, want upstream's %d (one per mistake, none for the checkpoint intent):\n%s", errs, n, render(ds))
	}
}

// TestImportedIncludePlaceGolden: an error in a file an imported child
// includes (include:) names its place as the fold names it, as one in the
// child's own file does, two levels down too (`state "kid.b"`, `intent
// "kid__put" slot "v"`, `state "mid.deep.e" intent "mid__deep__fin"`):
// upstream checks the child once its includes are merged and it is
// folded. The load's own errors there kept the child's names before
// (foldLoadPlaces knew the child's story file only). upstream.txt is the
// existing engine's validate output on the story, recorded (regenerate
// ours with -run ImportedIncludePlaceGolden -update).
func TestImportedIncludePlaceGolden(t *testing.T) {
	dir := filepath.Join(fixtures, "imported-include")
	_, ds := Load(dir, story.Options{LookupEnv: noEnv})
	checkGoldenAt(t, filepath.Join(dir, "expect.golden"), ds)
	if n := matchUpstreamPlaces(t, ds, filepath.Join(dir, "upstream.txt"), 8); len(ds) != n {
		t.Errorf("%d findings, want upstream's %d:\n%s", len(ds), n, render(ds))
	}
}

// matchUpstreamPlaces checks that each place the recorded upstream
// validate output at path names (at least want of them) starts one of
// ds's errors, and returns how many it names.
func matchUpstreamPlaces(t *testing.T, ds []diag.Diagnostic, path string, want int) int {
	t.Helper()
	up, err := os.ReadFile(path)
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
	if places < want {
		t.Errorf("%s names %d places, want the %d recorded", path, places, want)
	}
	return places
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

// A load error whose message diag.Sort clipped inside its place (a state
// name past half of diag.MaxMessage) is left as clipped, not cut again at
// the place's length.
func TestFoldPlacesClippedMessage(t *testing.T) {
	dir := t.TempDir()
	long := strings.Repeat("s", diag.MaxMessage)
	write(t, dir, "app.yaml", "app: {id: p}\nintents: {go: {}}\nimports:\n  kid: {source: ./kid}\nroot: s\nstates:\n  s:\n    on:\n      go: [{target: kid}]\n")
	write(t, dir, "kid/app.yaml", "app: {id: k}\nroot: a\nstates:\n  a: {}\n  ? "+long+"\n  : {view: [{kv: {pairs: {}}}]}\n")
	_, ds := Load(dir, story.Options{})
	i := slices.IndexFunc(ds, func(d diag.Diagnostic) bool { return d.Rule == story.RuleView.ID })
	if i < 0 || !strings.HasPrefix(ds[i].Message, `state "`+long[:100]) || !strings.HasSuffix(ds[i].Message, "kv requires pairs: with at least one entry") {
		t.Errorf("want the clipped kv error as the load made it, got:\n%s", render(ds))
	}
}
