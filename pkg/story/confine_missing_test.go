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

// A file under a directory link leading out to nothing (a dangling link)
// is outside too (red team 62): it was taken where the link stands,
// inside, so validate refused prompts/x.md (prompt-root) when the link's
// outside target existed and passed it when not, telling which
// directories the machine holds. A dangling link that stays inside still
// confines what is under it.
func TestConfinedUnderDanglingLinkOut(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "repo")
	for link, to := range map[string]string{"gone": filepath.Join(base, "absent"), "rel": "../absent2", "chain": "gone", "in": "nodir"} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(to, filepath.Join(dir, link)); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		rel  string
		want bool
	}{
		{"gone/x.md", false},
		{"gone/sub/x.md", false},
		{"rel/x.md", false},
		{"chain/x.md", false},
		{"in/x.md", true},
	} {
		if got := Confined(filepath.Join(dir, tc.rel), []string{dir}); got != tc.want {
			t.Errorf("Confined(%s) = %v, want %v", tc.rel, got, tc.want)
		}
	}
}
