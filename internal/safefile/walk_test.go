package safefile

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestWalkRootSkipsASwap: WalkRoot lists what lies below its root, links
// as entries never followed, and skips with no call a directory swapped
// for a link (to a directory, a file or nothing outside) between its
// parent's listing and its own: the walk reads the same for all three,
// and for a link to another directory inside, listed under its own name.
func TestWalkRootSkipsASwap(t *testing.T) {
	base := t.TempDir()
	outDir, outFile := filepath.Join(base, "outside"), filepath.Join(base, "outside.txt")
	if err := os.MkdirAll(filepath.Join(outDir, "deep"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(outFile, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	walk := func(swapTo string) []string {
		top := filepath.Join(t.TempDir(), "top")
		for _, d := range []string{"a/x", "b/z", "skip/y"} {
			if err := os.MkdirAll(filepath.Join(top, d), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.Symlink(outDir, filepath.Join(top, "link")); err != nil {
			t.Fatal(err)
		}
		root, err := os.OpenRoot(top)
		if err != nil {
			t.Fatal(err)
		}
		defer root.Close()
		var seen []string
		err = WalkRoot(root, ".", func(rel string, d fs.DirEntry, err error) error {
			if err != nil {
				t.Fatalf("%s: %v", rel, err)
			}
			seen = append(seen, rel)
			if rel == "skip" {
				return fs.SkipDir
			}
			if rel == "a" && swapTo != "" {
				if err := os.RemoveAll(filepath.Join(top, "a")); err != nil {
					t.Fatal(err)
				}
				if err := os.Symlink(swapTo, filepath.Join(top, "a")); err != nil {
					t.Fatal(err)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return seen
	}
	if got, want := walk(""), []string{"a", "a/x", "b", "b/z", "link", "skip"}; !slices.Equal(got, want) {
		t.Fatalf("walked %v, want %v", got, want)
	}
	for _, target := range []string{outDir, outFile, filepath.Join(base, "absent"), "b"} {
		if got, want := walk(target), []string{"a", "b", "b/z", "link", "skip"}; !slices.Equal(got, want) {
			t.Errorf("a swapped for a link to %s: walked %v, want %v", target, got, want)
		}
	}
}
