package main

import (
	"testing"
)

// -wide draws what it promises (a third region, wave arms emitting the
// next wave as a list and as an effect entry, a guarded wave arm, w1 into
// p, wave turns), and the stories load and run clean here, on both paths.
// Every promised draw is made in most -wide stories (each story draws
// several wave arms, each with its own chance of each form), so a batch
// of n misses one only if n stories in a row all lack it: n keeps a wide
// margin over the stories the seed takes and runs each form several times.
func TestWideStoriesRun(t *testing.T) {
	t.Parallel() // its own temp dirs; write shares nothing between calls
	const n = 8
	flows := func(dir string, n int, seed uint64) error {
		return write(dir, n, seed, genOpts{trail: true, wide: true})
	}
	dir := writeSeeded(t, flows, n, 41, "000/app.yaml", "001/flows/f.yaml")
	assertDrawn(t, dir, []string{"rc:\n", "initial: d1\n", "- emit: w", "emit:\n", "when: world.n > 1\n", "w1:\n                - effects:", "target: p\n", "name: w2\n"})
	runClean(t, discoverEach(t, dir, n), n)
	legacy := func(dir string, n int, seed uint64) error {
		return write(dir, n, seed, genOpts{wide: true, emits: true, legacy: true})
	}
	ldir := writeSeeded(t, legacy, 10, 43, "000/app.yaml")
	runClean(t, discoverEach(t, ldir, 10), 10)
}
