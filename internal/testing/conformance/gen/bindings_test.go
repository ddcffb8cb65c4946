package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// -bindings gives the agent kind's fixtures the host_bindings it promises
// (built-ins to themselves and to others, agent verbs, an empty map), a
// fixture fed by bindings alone and, at times, an executable claude
// stand-in; the story is the one the seed writes without it; the
// fixtures run clean here (no claude on the test's PATH: the real agents
// fail as upstream's do).
func TestBindingsAgentStories(t *testing.T) {
	t.Parallel()
	const n = 10
	agent := func(d string, n int, s uint64) error { return writeAgent(d, n, s, true) }
	dir := writeSeeded(t, agent, n, 733100, "000/app.yaml", "000/flows/b.yaml", "001/flows/c.yaml")
	assertDrawn(t, dir, []string{"host_bindings:\n", "host.run: host.run", "host.agent.decide: host.agent.ask",
		"host_bindings: {}", "STAND-IN for the claude CLI", "claude.calls"})
	plain := t.TempDir()
	if err := writeAgent(plain, 1, 733100, false); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"app.yaml", "flows/h.yaml"} {
		a, _ := os.ReadFile(filepath.Join(plain, "000", f))
		b, _ := os.ReadFile(filepath.Join(dir, "000", f))
		if eq := bytes.Equal(a, b); eq != (f == "app.yaml") {
			t.Errorf("%s: -bindings changed the story or left the fixture as it was (equal: %v)", f, eq)
		}
	}
	stand := 0
	for i := range n {
		if fi, err := os.Stat(filepath.Join(dir, "00"+string(rune('0'+i)), "bin", "claude")); err == nil {
			if fi.Mode()&0o100 == 0 {
				t.Errorf("bin/claude is not executable: %v", fi.Mode())
			}
			stand++
		}
	}
	if stand == 0 || stand == n {
		t.Errorf("%d of %d stories have a claude stand-in: want some, not all", stand, n)
	}
	runClean(t, storyFixtures(t, dir, n, 3), n)
}

// -bindings reaches the flow and host kinds' fixtures too.
func TestBindingsOtherKinds(t *testing.T) {
	t.Parallel()
	flow := func(d string, n int, s uint64) error { return write(d, n, s, genOpts{bindings: true}) }
	host := func(d string, n int, s uint64) error { return writeHost(d, n, s, false, true) }
	hostReal := func(d string, n int, s uint64) error { return writeHostReal(d, n, s, true) }
	assertDrawnWithin(t, flow, 733300, 6, "host_bindings:")
	assertDrawnWithin(t, host, 733200, 6, "host_bindings:")
	assertDrawnWithin(t, hostReal, 733200, 6, "host_bindings:")
}
