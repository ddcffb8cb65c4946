package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// -more draws what it promises (once: over set and unset bind targets,
// slotted emit_intent, transition views, self re-entry, guarded and
// templated on_complete targets), the stories load and run clean here, and
// the story without its draws is the one the seed writes without -more.
func TestMoreStoriesRun(t *testing.T) {
	t.Parallel()
	const n = 15
	flows := func(dir string, n int, seed uint64) error {
		return write(dir, n, seed, genOpts{emits: true, trail: true, extras: true, more: true})
	}
	dir := writeSeeded(t, flows, n, 11, "000/app.yaml", "002/flows/f.yaml")
	assertDrawn(t, dir, []string{"once: true", "bind:\n", "o: v", "emit_intent: put", "TV n={{ world.n }}",
		"world.last_job_status == 'done'", "../{{ 'c2' }}"})
	plain := t.TempDir()
	if err := write(plain, 1, 11, genOpts{emits: true, trail: true, extras: true}); err != nil {
		t.Fatal(err)
	}
	a, _ := os.ReadFile(filepath.Join(plain, "000", "app.yaml"))
	b, _ := os.ReadFile(filepath.Join(dir, "000", "app.yaml"))
	if bytes.Equal(a, b) || !bytes.Contains(b, []byte("id: gen-11")) {
		t.Errorf("-more added nothing to story 000")
	}
	runClean(t, discoverEach(t, dir, n), n)
}
