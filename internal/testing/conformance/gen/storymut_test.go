package main

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
)

// The edited copies of the corpus stories keep their own fixtures, differ
// from the story they copy in some YAML file, name their edits, mostly
// load here (at least four in five), and draw every kind of edit; the
// same seed writes the same bytes.
func TestStorymutStoriesEdit(t *testing.T) {
	t.Parallel()
	corpus := storytest.Shared(t, "corpus")
	stories, err := corpusStories(corpus)
	if err != nil || len(stories) < 10 {
		t.Fatalf("corpus stories: %d, error %v", len(stories), err)
	}
	n := 4 * len(stories)
	byRel := map[string]*corpusStory{}
	for _, cs := range stories {
		byRel[cs.rel] = cs
	}
	write := func(dir string, n int, seed uint64) error {
		return writeStorymutOf(dir, n, seed, corpus, stories, false, false)
	}
	dir := writeSeeded(t, write, n, 640000, "000/origin.txt", "000/app.yaml", "001/app.yaml", "002/app.yaml")
	assertDrawn(t, dir, []string{
		"guard added:", "guard \"", "set: ", "-> set", "target ", "on_enter: effect added",
		"say \"", "timeout added", "emit_intent ", "with ", "view +", "initial: ", "region ",
		"import: ", "terminal", "world ", "{{ world.", "{% for x in", "slot ", "on_error", "bind ",
	})
	loads := 0
	for i := range n {
		d := filepath.Join(dir, fmt.Sprintf("%03d", i))
		origin, err := os.ReadFile(filepath.Join(d, "origin.txt"))
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSpace(string(origin)), "\n")
		if len(lines) < 2 {
			t.Errorf("%s: origin.txt names no edit: %q", d, origin)
		}
		if strings.Contains(lines[0], "loads here") {
			loads++
		}
		rel := strings.Fields(lines[0])[0]
		src := filepath.Join(corpus, rel)
		if !changedSome(t, src, d) {
			t.Errorf("%s: no YAML file differs from %s", d, src)
		}
		var own []m // the story's fixtures, as corpusStories read them once
		if cs := byRel[rel]; cs != nil {
			own = cs.fixtures
		}
		copied, _ := readFixtures(filepath.Join(d, "flows"))
		if len(own) == 0 || len(copied) < len(own) {
			t.Errorf("%s: %d fixtures, want the story's own %d", d, len(copied), len(own))
		}
	}
	if loads*5 < n*4 {
		t.Errorf("%d of %d edited stories load, want at least four in five", loads, n)
	}
}

// changedSome reports that a YAML file under src outside flows/ has other
// bytes in its copy under d.
func changedSome(t *testing.T, src, d string) bool {
	t.Helper()
	changed := false
	err := filepath.WalkDir(src, func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() || !strings.HasSuffix(p, ".yaml") {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if strings.HasPrefix(rel, "flows"+string(filepath.Separator)) {
			return nil
		}
		a, _ := os.ReadFile(p)
		b, _ := os.ReadFile(filepath.Join(d, rel))
		changed = changed || !bytes.Equal(a, b)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return changed
}

// An empty corpus directory is refused with its path and the fix.
func TestStorymutNeedsStories(t *testing.T) {
	t.Parallel()
	empty := t.TempDir()
	err := writeStorymut(t.TempDir(), 1, 1, empty, false, false)
	if err == nil || !strings.Contains(err.Error(), empty) || !strings.Contains(err.Error(), "flow fixtures") {
		t.Fatalf("error %v, want one naming %s", err, empty)
	}
}

// -trail marks every corpus story's own states (an E: mark in each
// on_enter, T: in each arm) and declares zz_trail; every marked copy
// still loads.
func TestStoryTrailMarksLoad(t *testing.T) {
	t.Parallel()
	corpus := storytest.Shared(t, "corpus")
	stories, err := corpusStories(corpus)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := writeMutateOf(dir, len(stories), 0, stories, true); err != nil {
		t.Fatal(err)
	}
	for i := range stories {
		d := filepath.Join(dir, fmt.Sprintf("%03d", i))
		app, err := os.ReadFile(filepath.Join(d, "app.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(app), "zz_trail: {type: string, default: \"\"}") {
			t.Errorf("%s: app.yaml declares no zz_trail", d)
		}
		marks := 0
		_ = filepath.WalkDir(d, func(p string, e fs.DirEntry, err error) error {
			if err == nil && !e.IsDir() && strings.HasSuffix(p, ".yaml") {
				b, _ := os.ReadFile(p)
				marks += strings.Count(string(b), "'E:")
			}
			return nil
		})
		if marks == 0 {
			t.Errorf("%s: no on_enter marked", d)
		}
		if !storyLoads(d, corpus) {
			t.Errorf("%s: the marked story does not load", d)
		}
	}
}

// An increment is added, or a set turned into one, only on a world key
// whose default is no non-zero number, unless -known: upstream replays
// such a key from 0 (conformance values-increment-default; hunt111 found
// three storymut stories differing only so).
func TestStorymutIncrementSkipsNonZeroDefault(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	app := `app: {id: inc, version: 0.1.0}
world:
  n: {type: int, default: 7}
  z: {type: int, default: 0}
intents: {go: {}}
root: s
states:
  s:
    view: "S"
    on:
      go: [{target: s, effects: [{set: {n: 3}}]}]
`
	if err := os.WriteFile(filepath.Join(dir, "app.yaml"), []byte(app), 0o644); err != nil {
		t.Fatal(err)
	}
	// drawn is what seeds 0..59 draw, stopping at the first that draws
	// until when it is not empty
	drawn := func(known bool, until string) map[string]bool {
		seen := map[string]bool{}
		for s := range uint64(60) {
			fs, err := storyFiles(dir)
			if err != nil {
				t.Fatal(err)
			}
			g := newGen(s)
			g.withKnown = known
			seen[g.editIncrement(collectNodes(fs))] = true
			if until != "" && seen[until] {
				break
			}
		}
		return seen
	}
	plain := drawn(false, "")
	if plain["increment added: n"] || plain["set -> increment"] {
		t.Errorf("without -known an increment of n (default 7) was drawn: %v", plain)
	}
	if !plain["increment added: z"] {
		t.Errorf("no increment of z (default 0) drawn: %v", plain)
	}
	if known := drawn(true, "set -> increment"); !known["set -> increment"] {
		t.Errorf("with -known the set of n never became an increment: %v", known)
	}
}
