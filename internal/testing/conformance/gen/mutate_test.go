package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
	"kitsoki/pkg/flowtest"
)

// The mutated copies of the corpus stories load here with everything they
// include or import beside them, each with its fixtures, which run to
// their end (no fatal: a recording miss, a fixture that does not parse),
// many turns deep, some passing and some failing; every kind of mutation
// is drawn; the same seed writes the same bytes. (The corpus's own data
// holds Go panic texts, so runClean's check does not apply.)
func TestMutateStoriesRun(t *testing.T) {
	t.Parallel()
	corpus := storytest.Shared(t, "corpus")
	stories, err := corpusStories(corpus)
	if err != nil || len(stories) < 10 {
		t.Fatalf("corpus stories: %d, error %v", len(stories), err)
	}
	n := len(stories)
	write := func(dir string, n int, seed uint64) error { return writeMutateOf(dir, n, seed, stories, false) }
	dir := writeSeeded(t, write, n, 11, "000/origin.txt", "001/flows/m0.yaml", "002/flows/m7.yaml")
	assertDrawn(t, dir, []string{
		"advance_clock:", "mutated failure of", "mutated outage of", "extra_slot:", "host.unlisted",
		"initial_state:", "expect_state:", "expect_world:", "source: ./robbery",
	})
	var files []*flowtest.File
	seen := map[string]bool{}
	for i := range n {
		d := filepath.Join(dir, fmt.Sprintf("%03d", i))
		origin, err := os.ReadFile(filepath.Join(d, "origin.txt"))
		if err != nil {
			t.Fatal(err)
		}
		seen[strings.Fields(string(origin))[0]] = true
		fs, _, err := flowtest.DiscoverUnder("", nil, []string{filepath.Join(d, "app.yaml")}, filepath.Join(d, "flows", "*.yaml"), false, nil)
		if err != nil || len(fs) != mutateFixtures {
			t.Fatalf("%s: fixtures %d, error %v", d, len(fs), err)
		}
		files = append(files, fs...)
	}
	if len(seen) != len(stories) {
		t.Errorf("%d stories copied, want each of the %d", len(seen), len(stories))
	}
	results := flowtest.NewRunner(flowtest.Options{Jobs: 1}).Run(context.Background(), files)
	turns, passed := 0, 0
	for _, r := range results {
		if r.Fatal != nil {
			t.Errorf("%s: could not run: %s", r.Story, r.Fatal.Message)
			continue
		}
		turns += len(r.Flow.Turns)
		if r.Passed() {
			passed++
		}
	}
	if turns < len(files)*3 || passed == 0 || passed == len(results) {
		t.Errorf("%d fixtures ran %d turns, %d passed: want runs three turns deep on average, some passing, some not", len(results), turns, passed)
	}
}

// An empty corpus directory is refused with its path and the fix.
func TestMutateNeedsStories(t *testing.T) {
	t.Parallel()
	empty := t.TempDir()
	err := writeMutate(t.TempDir(), 1, 1, empty, false)
	if err == nil || !strings.Contains(err.Error(), empty) || !strings.Contains(err.Error(), "flow fixtures") {
		t.Fatalf("error %v, want one naming %s", err, empty)
	}
}

// A cassette kept directly in a source story's flows/ (as the conformance
// goldens keep theirs) is copied with the story; its fixtures are not.
func TestMutateKeepsCassettesInFlows(t *testing.T) {
	t.Parallel()
	from := t.TempDir()
	src := filepath.Join(from, "s")
	if err := writeFiles(src, []agentFile{
		{"app.yaml", "app: {id: s, version: 0.1.0}\nroot: a\nintents: {go: {}}\nstates:\n  a:\n    on: {go: [{target: a}]}\n"},
		{"flows/f.yaml", "test_kind: flow\napp: ../app.yaml\nhost_cassette: answer.cassette.yaml\nturns:\n  - intent: {name: go}\n"},
		{"flows/answer.cassette.yaml", "kind: host_cassette\nversion: 1\ncalls: []\n"},
	}); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := writeMutate(dir, 1, 1, from, false); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "000", "flows", "answer.cassette.yaml")); err != nil {
		t.Errorf("the cassette beside the fixtures was not copied: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "000", "flows", "f.yaml")); err == nil {
		t.Error("the source's own fixture f.yaml was copied")
	}
}
