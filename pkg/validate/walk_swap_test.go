package validate

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"kitsoki/internal/testing/storytest"
)

// TestWalkSkipsADirectorySwappedOut: a DIR/... walk listed each directory
// by its path, so one a process swapped for a symbolic link leading out
// between its parent's listing and its own had the outside directory
// listed, and an app.yaml there found (and loaded). The walk lists through
// a root of DIR now: the swapped directory is skipped, the same whether
// the link leads to a directory holding a story, a file or nothing.
func TestWalkSkipsADirectorySwappedOut(t *testing.T) {
	base := t.TempDir()
	outDir, outFile := filepath.Join(base, "outside"), filepath.Join(base, "outside.txt")
	storytest.WriteFile(t, filepath.Join(outDir, StoryFile), deepManifest)
	storytest.WriteFile(t, filepath.Join(outDir, "sub", StoryFile), deepManifest)
	storytest.WriteFile(t, outFile, "x")
	for _, target := range []string{outDir, outFile, filepath.Join(base, "absent"), "../outside"} {
		tree := filepath.Join(t.TempDir(), "tree")
		storytest.WriteFile(t, filepath.Join(tree, "a", "keep.txt"), "")
		storytest.WriteFile(t, filepath.Join(tree, "b", StoryFile), deepManifest)
		swapped := false
		got, err := walkHooked(tree, nil, func(rel string) {
			if rel != "a" {
				return
			}
			if err := os.RemoveAll(filepath.Join(tree, "a", "keep.txt")); err != nil {
				t.Fatal(err)
			}
			swapOut(t, filepath.Join(tree, "a"), target)
			swapped = true
		})
		if !swapped {
			t.Fatal("the walk never reached a: nothing was swapped")
		}
		if err != nil {
			t.Fatalf("link to %s: %v", target, err)
		}
		if want := []string{filepath.Join(tree, "b", StoryFile)}; !slices.Equal(got, want) {
			t.Errorf("a swapped for a link to %s while walked: found %v, want %v", target, got, want)
		}
	}
}
