package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// -override draws what it promises (overrides of the story's keys and the
// engine's, on intent and clock-only turns, on both paths), the stories
// load and run clean here, and the story itself is the one the seed
// writes without -override.
func TestOverrideStoriesRun(t *testing.T) {
	t.Parallel()
	const n = 15
	flows := func(dir string, n int, seed uint64) error {
		return write(dir, n, seed, genOpts{emits: true, trail: true, extras: true, more: true, gates: true, override: true})
	}
	dir := writeSeeded(t, flows, n, 17, "000/flows/f.yaml", "001/flows/f.yaml")
	assertDrawn(t, dir, []string{"world_override:", "last_error:", "host_error:", "zz_undeclared:", `"n": `})
	plain := t.TempDir()
	if err := write(plain, 1, 17, genOpts{emits: true, trail: true, extras: true, more: true, gates: true}); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"app.yaml", "flows/f.yaml"} {
		a, _ := os.ReadFile(filepath.Join(plain, "000", f))
		b, _ := os.ReadFile(filepath.Join(dir, "000", f))
		if eq := bytes.Equal(a, b); eq != (f == "app.yaml") {
			t.Errorf("%s: -override changed the story or left the fixture as it was (equal: %v)", f, eq)
		}
	}
	runClean(t, discoverEach(t, dir, n), n)
	legacy := t.TempDir()
	if err := write(legacy, 10, 17, genOpts{legacy: true, extras: true, override: true}); err != nil {
		t.Fatal(err)
	}
	runClean(t, discoverEach(t, legacy, 10), 10)
}
