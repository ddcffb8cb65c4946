package story

import (
	"os"
	"path/filepath"
	"testing"
)

// Confined answers the same for a file under a directory link leading out
// whether the file exists or not: before, a missing one was taken where it
// is written (inside), so validate passed prompts/nope.md and refused
// prompts/there.md, telling a stranger's pull request which files the CI
// machine holds. A missing file under a link that stays inside is still
// confined, and so is one in a missing directory of the story.
func TestConfinedMissingUnderLinkOutSameAsExisting(t *testing.T) {
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "there.md"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "real"), 0o755); err != nil {
		t.Fatal(err)
	}
	for link, to := range map[string]string{"out": outside, "in": "real"} {
		if err := os.Symlink(to, filepath.Join(dir, link)); err != nil {
			t.Fatal(err)
		}
	}
	roots := []string{dir}
	for _, tc := range []struct {
		rel  string
		want bool
	}{
		{"out/there.md", false},
		{"out/nope.md", false},
		{"out/sub/nope.md", false},
		{"in/nope.md", true},
		{"nodir/nope.md", true},
	} {
		if got := Confined(filepath.Join(dir, tc.rel), roots); got != tc.want {
			t.Errorf("Confined(%s) = %v, want %v", tc.rel, got, tc.want)
		}
	}
}
