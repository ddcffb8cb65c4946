package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// -deep draws what it promises (third-level compounds, relative, bare ..
// and slash targets, the state-local loc, emit: in other company), the
// stories load and run clean here on both paths, and the story without
// its draws is the one the seed writes without -deep.
func TestDeepStoriesRun(t *testing.T) {
	t.Parallel() // its own temp dirs; write shares nothing between calls
	const n = 30
	flows := func(dir string, n int, seed uint64) error {
		return write(dir, n, seed, genOpts{emits: true, trail: true, extras: true, more: true, gates: true, override: true, deep: true})
	}
	dir := writeSeeded(t, flows, n, 19, "000/app.yaml", "001/flows/f.yaml")
	assertDrawn(t, dir, []string{"d1:", "x2:", "target: ../", "target: ..\n", "target: c/c2", "loc:", "name: loc",
		"emit: ping", "background: true\n"})
	plain := t.TempDir()
	if err := write(plain, 1, 19, genOpts{emits: true, trail: true, extras: true, more: true, gates: true, override: true}); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"app.yaml", "flows/f.yaml"} {
		a, _ := os.ReadFile(filepath.Join(plain, "000", f))
		b, _ := os.ReadFile(filepath.Join(dir, "000", f))
		if bytes.Equal(a, b) || !bytes.Contains(b, []byte("gen-19")) && f == "app.yaml" {
			t.Errorf("%s: -deep added nothing", f)
		}
	}
	runClean(t, discoverEach(t, dir, n), n)
	legacy := t.TempDir()
	if err := write(legacy, 10, 19, genOpts{legacy: true, extras: true, deep: true}); err != nil {
		t.Fatal(err)
	}
	runClean(t, discoverEach(t, legacy, 10), 10)
}

// relative writes a path as seen from another, climbing as asked.
func TestRelativeTargets(t *testing.T) {
	for _, c := range []struct {
		from, to string
		up       int
		want     string
	}{
		{"c.c2.d1", "c.c2.d2", 1, "../d2"},
		{"c.c2.d1", "c.c1", 2, "../../c1"},
		{"c.c2.d1", "c.c2", 1, ".."},
		{"c.c2.d1", "c", 1, ""},
		{"c.c2.d1", "p.ra.a1", 3, "../../../p/ra/a1"},
		{"s1", "s2", 1, "../s2"},
		{"s1", "s2", 2, ""},
	} {
		if got := relative(c.from, c.to, c.up); got != c.want {
			t.Errorf("relative(%q, %q, %d) = %q, want %q", c.from, c.to, c.up, got, c.want)
		}
	}
}
