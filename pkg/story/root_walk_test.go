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
