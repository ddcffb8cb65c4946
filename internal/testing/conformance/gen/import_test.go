package main

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"kitsoki/pkg/flowtest"
)

// The import stories gen writes load here (all but those carrying a
// load-time mistake, which must not) and their fixtures run with no Go
// runtime text in any failure, view or event; every key of an import and
// every mistake kind is drawn; the same seed writes the same bytes.
func TestImportStoriesRun(t *testing.T) {
	t.Parallel()
	const n = 30
	dir := writeSeeded(t, writeImport, n, 13, "000/app.yaml", "000/kid/app.yaml", "001/flows/f0.yaml")
	want := []string{
		"source:", "entry:", "exits:", "world_in:", "hosts: declared", "hosts: inherit", "export:", "import:",
		"overrides:", "prompts/p.md:", "host_bindings:", "requires:", "exports:", "type: parallel", "timeout:",
		"background: true", "@exit:", "gk:", "kid__", "expect_state: kid.", "expect_view_matches:", "advance_clock:",
	}
	assertDrawn(t, dir, want)
	var files []*flowtest.File
	mistakes := 0
	for i := range n {
		d := filepath.Join(dir, fmt.Sprintf("%03d", i))
		fs, _, err := flowtest.DiscoverUnder("", nil, []string{filepath.Join(d, "app.yaml")}, filepath.Join(d, "flows", "*.yaml"), false, nil)
		if _, statErr := os.Stat(filepath.Join(d, "mistake.txt")); statErr == nil {
			mistakes++
			continue // checked below: it must not load
		}
		if err != nil || len(fs) != 2 {
			t.Fatalf("%s: fixtures %d, error %v", d, len(fs), err)
		}
		files = append(files, fs...)
	}
	if mistakes == 0 || mistakes > n/2 {
		t.Errorf("%d of %d stories carry a load-time mistake, want some, under half", mistakes, n)
	}
	runClean(t, files, len(files)/2)
}

// A story drawn with each load-time mistake does not load, and the kid
// of a clean one does.
func TestImportMistakesDoNotLoad(t *testing.T) {
	t.Parallel()
	for i, kind := range impMistakes {
		g := newGen(uint64(500 + i))
		files := g.importStory("m")
		var app m
		for _, f := range files {
			if f.name == "app.yaml" {
				app = f.body.(m)
			}
		}
		files = g.impMistake(kind, app, files)
		dir := t.TempDir()
		if err := writeFiles(dir, files); err != nil {
			t.Fatal(err)
		}
		_, _, err := flowtest.DiscoverUnder("", nil, []string{filepath.Join(dir, "app.yaml")}, filepath.Join(dir, "flows", "*.yaml"), false, nil)
		rs := flowtest.NewRunner(flowtest.Options{Jobs: 1}).Run(t.Context(), mustDiscover(t, dir))
		loaded := err == nil && len(rs) > 0 && rs[0].Fatal == nil
		if loaded {
			t.Errorf("mistake %s: the story loads", kind)
		}
	}
}

func mustDiscover(t *testing.T, dir string) []*flowtest.File {
	t.Helper()
	fs, _, _ := flowtest.DiscoverUnder("", nil, []string{filepath.Join(dir, "app.yaml")}, filepath.Join(dir, "flows", "*.yaml"), false, nil)
	return fs
}
