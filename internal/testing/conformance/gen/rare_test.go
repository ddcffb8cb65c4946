package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// -rare draws what it promises (the q1/q2 loop entered by cap, with a
// capped turn's assertions; non-finite computed sets and a view printing
// them; templated targets rendering @exit:done in the story and the child;
// on_complete chains failing into on_error "." after a bind; background
// agent-verb jobs answered by stubs and by a cassette in a second
// fixture, with chains reading their meta; NaN-slot emit hops in
// on_complete chains and timeout targets), the stories
// load and run clean here on both paths, and without -rare a seed writes
// another story.
func TestRareStoriesRun(t *testing.T) {
	t.Parallel() // its own temp dirs; write shares nothing between calls
	const n = 15
	flows := func(dir string, n int, seed uint64) error {
		return write(dir, n, seed, genOpts{trail: true, jobs: true, rare: true})
	}
	dir := writeSeeded(t, flows, n, 41, "000/app.yaml", "001/flows/f.yaml")
	assertDrawn(t, dir, []string{
		"    q1:\n", "on_error: q2\n", "name: cap\n", "expect_error:\n", "expect_state: ",
		"'{{ 1 / world.n }}'", "F f={{ world.f }}",
		"target: '{{ world.ex }}'", "'{{ ''@exit:done'' }}'", "{% if world.m > 2 %}",
		"on_error: .\n", "when: world.r == 'R'",
		"name: aj\n", "invoke: host.agent.decide\n", "invoke: host.agent.task\n", "'{{ world.last_job_result.meta.cost_usd }}'",
		"host_cassette: cassettes/j.yaml\n", "handler: host.agent.ask\n", "expect_view_matches: t=0.000000 s=0.000000\n",
		"emit_intent: nf\n", "v: '{{ 0 / world.nz }}'", "nh: '{{ slots.v }}'",
		"emit_intent: nf\n", "v: '{{ 0 / world.nz }}'", "nh: '{{ slots.v }}'",
	})
	plain := t.TempDir()
	if err := write(plain, 1, 41, genOpts{trail: true, jobs: true}); err != nil {
		t.Fatal(err)
	}
	a, _ := os.ReadFile(filepath.Join(plain, "000", "app.yaml"))
	b, _ := os.ReadFile(filepath.Join(dir, "000", "app.yaml"))
	if bytes.Equal(a, b) {
		t.Error("-rare added nothing")
	}
	runClean(t, discoverEach(t, dir, n), n)
	legacy := t.TempDir()
	if err := write(legacy, 5, 41, genOpts{legacy: true, rare: true}); err != nil {
		t.Fatal(err)
	}
	runClean(t, discoverEach(t, legacy, 5), 5)
}
