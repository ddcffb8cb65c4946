package safefile

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// DropLinkedOut drops a root nested in another whose symlink leads out of
// it, and keeps one whose link stays inside, a missing one, and a root of
// its own (not under another) wherever it resolves.
func TestDropLinkedOut(t *testing.T) {
	base := t.TempDir()
	outside := filepath.Join(base, "outside")
	story := filepath.Join(base, "story")
	for _, d := range []string{outside, filepath.Join(story, "real")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for link, to := range map[string]string{
		"story/out":    outside,
		"story/in":     "real",
		"story/hop":    "out", // a chain: inside, then out
		"shared-link":  outside,
		"story/broken": filepath.Join(base, "gone"),
	} {
		if err := os.Symlink(to, filepath.Join(base, link)); err != nil {
			t.Fatal(err)
		}
	}
	j := func(p string) string { return filepath.Join(base, p) }
	roots := []string{j("story"), j("story/out"), j("story/in"), j("story/hop"), j("story/broken"), j("story/missing"), j("shared-link")}
	got := DropLinkedOut(roots)
	want := []string{j("story"), j("story/in"), j("story/broken"), j("story/missing"), j("shared-link")}
	if !slices.Equal(got, want) {
		t.Fatalf("DropLinkedOut:\n got %v\nwant %v", got, want)
	}
	if got := DropLinkedOut([]string{j("story/out")}); !slices.Equal(got, []string{j("story/out")}) {
		t.Fatalf("a lone root is kept: %v", got)
	}
}
