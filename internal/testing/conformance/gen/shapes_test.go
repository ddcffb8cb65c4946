package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// -shapes draws the effect shapes it promises (once: with on_error on a
// failing call, emit: on a failing call, emit_intent beside other kinds,
// first-kind-wins entries, on_complete targets beside other keys), the
// stories load and run clean here on both paths, and the story without
// its draws is the one the seed writes without -shapes.
func TestShapesStoriesRun(t *testing.T) {
	t.Parallel()
	const n = 12
	for _, legacy := range []bool{false, true} {
		flows := func(dir string, n int, seed uint64) error {
			return write(dir, n, seed, genOpts{emits: true, trail: true, legacy: legacy, shapes: true})
		}
		dir := writeSeeded(t, flows, n, 13, "000/app.yaml", "002/flows/f.yaml")
		assertDrawn(t, dir, []string{"once: true", "on_error:", "emit: go", "say: first {{ world.n }}",
			"increment:\n", "emit_intent: '{{ world.n > 2 ? ''ping'' : '''' }}'", "s: '{{ world.s }}IN'"})
		plain := t.TempDir()
		if err := write(plain, 1, 13, genOpts{emits: true, trail: true, legacy: legacy}); err != nil {
			t.Fatal(err)
		}
		a, _ := os.ReadFile(filepath.Join(plain, "000", "app.yaml"))
		b, _ := os.ReadFile(filepath.Join(dir, "000", "app.yaml"))
		if bytes.Equal(a, b) || !bytes.Contains(b, []byte("id: gen-13")) {
			t.Errorf("-shapes added nothing to story 000")
		}
		runClean(t, discoverEach(t, dir, n), n)
	}
}
