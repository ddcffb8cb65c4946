package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// -gates draws what it promises (decider pins of both kinds, hidden
// intents, literal emits of a state's own intents, staged and one-shot
// fixtures), the stories load and run clean here, and the story without
// its draws is the one the seed writes without -gates.
func TestGatesStoriesRun(t *testing.T) {
	t.Parallel()
	const n = 15
	flows := func(dir string, n int, seed uint64) error {
		return write(dir, n, seed, genOpts{emits: true, trail: true, extras: true, more: true, gates: true})
	}
	dir := writeSeeded(t, flows, n, 13, "000/app.yaml", "001/flows/f.yaml")
	assertDrawn(t, dir, []string{"decider: human", "decider: llm", "hidden: true", "mode: staged", "mode: one-shot", "emit_intent: go"})
	plain := t.TempDir()
	if err := write(plain, 1, 13, genOpts{emits: true, trail: true, extras: true, more: true}); err != nil {
		t.Fatal(err)
	}
	a, _ := os.ReadFile(filepath.Join(plain, "000", "app.yaml"))
	b, _ := os.ReadFile(filepath.Join(dir, "000", "app.yaml"))
	if bytes.Equal(a, b) || !bytes.Contains(b, []byte("id: gen-13")) {
		t.Errorf("-gates added nothing to story 000")
	}
	runClean(t, discoverEach(t, dir, n), n)
	legacy := t.TempDir()
	if err := write(legacy, 10, 13, genOpts{legacy: true, extras: true, gates: true}); err != nil {
		t.Fatal(err)
	}
	runClean(t, discoverEach(t, legacy, 10), 10)
}
