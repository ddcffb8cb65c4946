package story

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestAncestorsNearestFirst: dir itself, then each parent, through the
// filesystem root; a break stops the walk.
func TestAncestorsNearestFirst(t *testing.T) {
	root := string(filepath.Separator)
	dir := filepath.Join(root, "a", "b")
	got := slices.Collect(Ancestors(dir + string(filepath.Separator) + "."))
	want := []string{dir, filepath.Join(root, "a"), root}
	if !slices.Equal(got, want) {
		t.Fatalf("Ancestors(%s) = %q, want %q", dir, got, want)
	}
	for d := range Ancestors(dir) {
		if d != dir {
			t.Fatalf("walk went on to %s after a break", d)
		}
		break
	}
}

// TestRootMarkers: a .kitsoki/ directory marks a project root but not a git
// root; .git marks both; a .kitsoki file marks neither.
func TestRootMarkers(t *testing.T) {
	base := t.TempDir()
	top := filepath.Join(base, "top")
	mid := filepath.Join(top, "mid")
	leaf := filepath.Join(mid, "leaf")
	if err := os.MkdirAll(filepath.Join(mid, ".kitsoki"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(leaf, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(leaf, ".kitsoki"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(top, ".git"), []byte("gitdir: elsewhere\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, marked := ProjectRoot(leaf); got != mid || !marked {
		t.Errorf("ProjectRoot(leaf) = %s, %v; want %s, true", got, marked, mid)
	}
	if got, found := GitRoot(leaf); got != top || !found {
		t.Errorf("GitRoot(leaf) = %s, %v; want %s, true", got, found, top)
	}
	if got, found := Above(leaf, func(string) bool { return false }); got != "" || found {
		t.Errorf("Above(never) = %q, %v; want \"\", false", got, found)
	}
}

// TestKitsokiOutputMarksNothing: a .kitsoki/ holding only what kitsoki
// writes there by itself (a run's sessions/, the coverage profile, the
// existing engine's repo file) does not mark a root, so a run in a story's
// directory does not make it one; anything else there, an empty one made
// by hand, or a link marks it.
func TestKitsokiOutputMarksNothing(t *testing.T) {
	base := t.TempDir()
	story := filepath.Join(base, "proj", "story")
	mk := func(p string, dir bool) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if dir {
			if err := os.Mkdir(p, 0o755); err != nil {
				t.Fatal(err)
			}
		} else if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	mk(filepath.Join(base, "proj", ".git"), true)
	kd := filepath.Join(story, ".kitsoki")
	mk(filepath.Join(kd, "sessions", "run.jsonl"), false)
	mk(filepath.Join(kd, "coverage.json"), false)
	mk(filepath.Join(kd, "repo"), false)
	proj := filepath.Join(base, "proj")
	if got, marked := ProjectRoot(story); got != proj || !marked {
		t.Fatalf("ProjectRoot under kitsoki's own output = %s, %v; want %s, true", got, marked, proj)
	}
	mk(filepath.Join(kd, "plugins.yaml"), false)
	if got, _ := ProjectRoot(story); got != story {
		t.Errorf("ProjectRoot with a profile = %s, want %s", got, story)
	}
	empty := filepath.Join(base, "empty")
	mk(filepath.Join(empty, ".kitsoki"), true)
	if !HasKitsokiDir(empty) {
		t.Error("an empty .kitsoki/ made by hand does not mark")
	}
	link := filepath.Join(base, "link")
	mk(link, true)
	if err := os.Symlink(filepath.Join(base, "nowhere"), filepath.Join(link, ".kitsoki")); err != nil {
		t.Fatal(err)
	}
	if !HasKitsokiDir(link) {
		t.Error("a .kitsoki link does not mark")
	}
}
