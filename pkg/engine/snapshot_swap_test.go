package engine

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
)

// TestSnapshotSwappedForALinkOutReadsNothingOutside: the snapshot listed
// the story directory, then opened each file by its path: a file (or a
// directory on its way) swapped for a symbolic link leading out after the
// listing had the outside file's bytes put in session.story when its size
// matched, and the run failed in words that told a file of another size,
// a directory or nothing apart. Listing and opens go through a root of
// the story directory now: the swap fails the snapshot as leading out,
// the same whatever lies outside.
func TestSnapshotSwappedForALinkOutReadsNothingOutside(t *testing.T) {
	outside := storytest.TempTree(t, map[string]string{
		"same.md":     "CANARY", // the size of the file it replaces
		"other.md":    "OUTSIDE-CANARY",
		"dir.md/x.md": "CANARY",
		"sub/p.md":    "CANARY",
	})
	for _, swap := range []string{"prompts/p.md", "prompts"} {
		answers := map[string]string{}
		for _, target := range []string{"same.md", "other.md", "dir.md", "missing.md", "sub"} {
			dir := storytest.TempTree(t, map[string]string{"app.yaml": "app: {id: x}\n", "prompts/p.md": "inside"})
			snap, err := snapshotThrough("x", dir, "app.yaml", func(rel string) {
				if rel != "prompts/p.md" {
					return
				}
				p := filepath.Join(dir, filepath.FromSlash(swap))
				if err := os.RemoveAll(p); err != nil {
					t.Fatal(err)
				}
				if err := os.Symlink(filepath.Join(outside, target), p); err != nil {
					t.Fatal(err)
				}
			})
			if err == nil {
				t.Fatalf("%s swapped for a link to %s: snapshot %v", swap, target, snap["files"])
			}
			answers[target] = strings.ReplaceAll(strings.ReplaceAll(err.Error(), dir, "DIR"), outside, "OUTSIDE")
		}
		want := answers["same.md"]
		for target, got := range answers {
			if got != want {
				t.Errorf("%s swapped for a link to %s:\n%s\nto a file of its size:\n%s", swap, target, got, want)
			}
		}
		if !strings.Contains(want, "outside the project root") || strings.Contains(want, "OUTSIDE") {
			t.Errorf("%s swapped: want the outside refusal naming nothing outside, got:\n%s", swap, want)
		}
	}
}
