package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// -asserts draws the assertions it promises (session and turn keys,
// every state path form, inbox and jobs on the orchestrator path,
// expect_world_unchanged on the legacy path), the stories load and their
// fixtures run clean here on both paths, and the story itself is the one
// the seed writes without -asserts.
func TestAssertsStoriesRun(t *testing.T) {
	t.Parallel()
	const n = 12
	for _, legacy := range []bool{false, true} {
		flows := func(dir string, n int, seed uint64) error {
			return write(dir, n, seed, genOpts{emits: true, extras: true, jobs: !legacy, legacy: legacy, asserts: true})
		}
		dir := writeSeeded(t, flows, n, 19, "000/flows/f.yaml", "002/flows/f.yaml")
		want := []string{"expect_no_errors: true", "expect_terminal:", "expect_state: p#p.ra.", "expect_state: c.c",
			"expect_not_state:", "expect_state_in:", "expect_view_matches:", "expect_host_calls:", "times: ",
			"expect_no_host_calls:", "expect_events:", "kind: machine.transition", "expect_error:",
			"expect_events_count_at", "expect_slots:", "by_call:", "w:\n", "infra_error: down c", "error: both c"}
		if legacy {
			want = append(want, "expect_world_unchanged: true")
		} else {
			want = append(want, "expect_inbox:", "severities:", "expect_jobs:", "namespace: host.job", "v: '{{ world.")
		}
		assertDrawn(t, dir, want)
		plain := t.TempDir()
		if err := write(plain, 1, 19, genOpts{emits: true, extras: true, jobs: !legacy, legacy: legacy}); err != nil {
			t.Fatal(err)
		}
		for _, f := range []string{"app.yaml", "flows/f.yaml"} {
			a, _ := os.ReadFile(filepath.Join(plain, "000", f))
			b, _ := os.ReadFile(filepath.Join(dir, "000", f))
			if eq := bytes.Equal(a, b); eq != (f == "app.yaml") {
				t.Errorf("%s: -asserts changed the story or left the fixture as it was (equal: %v)", f, eq)
			}
		}
		runClean(t, discoverEach(t, dir, n), n)
	}
}
