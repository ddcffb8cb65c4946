package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// -extras draws what it promises (timeouts on a compound, a parallel
// root, a region leaf and the child, relative and templated targets,
// wildcard arms, effect guards, two-kind entries, hints, default arms,
// clock turns in days), the stories load and run clean here, and the
// story without its extras is the one the seed writes without -extras.
func TestExtrasStoriesRun(t *testing.T) {
	t.Parallel()
	const n = 30
	flows := func(dir string, n int, seed uint64) error {
		return write(dir, n, seed, genOpts{emits: true, trail: true, extras: true})
	}
	dir := writeSeeded(t, flows, n, 7, "000/app.yaml", "002/flows/f.yaml")
	assertDrawn(t, dir, []string{"target: ../c2", "target: ../a2", "after: 1d", "after: 1h30m",
		`'*':`, "guard_hint:", "default: true", "when: world.nope.x == 1", "emit_intent: ping\n              increment:",
		"{% if world.n > 2 %}s1{% else %}s2{% endif %}{{ '''' }}", "target: '{{ ''s2'' }}'", "advance_clock: 1d", "target: k2"})
	plain := t.TempDir()
	if err := write(plain, 1, 7, genOpts{emits: true, trail: true}); err != nil {
		t.Fatal(err)
	}
	a, _ := os.ReadFile(filepath.Join(plain, "000", "app.yaml"))
	b, _ := os.ReadFile(filepath.Join(dir, "000", "app.yaml"))
	if bytes.Equal(a, b) || !bytes.Contains(b, []byte("id: gen-7")) {
		t.Errorf("-extras added nothing to story 000")
	}
	runClean(t, discoverEach(t, dir, n), n)
}
