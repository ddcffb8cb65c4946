package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// -redirects draws what it promises (an on_complete chain whose failing
// call redirects after an emit hop, on_error naming ".", "..", the parallel
// root and a job's origin), the stories load and run clean here, and -jobs
// alone writes another story.
func TestRedirectsStoriesRun(t *testing.T) {
	t.Parallel() // its own temp dirs; write shares nothing between calls
	const n = 15
	flows := func(dir string, n int, seed uint64) error {
		return write(dir, n, seed, genOpts{emits: true, trail: true, jobs: true, redirects: true})
	}
	dir := writeSeeded(t, flows, n, 31, "000/app.yaml", "001/flows/f.yaml")
	assertDrawn(t, dir, []string{"- emit_intent: ping\n                                - invoke: host.bad", "on_error: .\n", "on_error: ..\n", "on_error: p\n"})
	plain := t.TempDir()
	if err := write(plain, 1, 31, genOpts{emits: true, trail: true, jobs: true}); err != nil {
		t.Fatal(err)
	}
	a, _ := os.ReadFile(filepath.Join(plain, "000", "app.yaml"))
	b, _ := os.ReadFile(filepath.Join(dir, "000", "app.yaml"))
	if bytes.Equal(a, b) {
		t.Error("-redirects added nothing")
	}
	runClean(t, discoverEach(t, dir, n), n)
}
