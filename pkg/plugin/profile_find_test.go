package plugin

import (
	"path/filepath"
	"testing"
)

// searchTree lays out the shapes the upward search must tell apart and
// returns its root:
//
//	.kitsoki/plugins.yaml        the profile every story falls back to
//	a/.kitsoki/                  a nearer .kitsoki with no profile
//	c/.kitsoki                   a file, not a directory
//	e/.kitsoki/plugins.yaml/     a directory named like the profile
//	g/.kitsoki/plugins.yaml      a nearer profile
//	i/.kitsoki/sessions/         a nearer .kitsoki only a run's trace made
func searchTree(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	writeFile(t, filepath.Join(root, ProfileDir, ProfileFile), "disable: []\n")
	writeFile(t, filepath.Join(root, "a", ProfileDir, "plugins", "x", "manifest.yaml"), "id: x\n")
	writeFile(t, filepath.Join(root, "a", "b", "app.yaml"), "")
	writeFile(t, filepath.Join(root, "c", ProfileDir), "not a directory\n")
	writeFile(t, filepath.Join(root, "c", "d", "app.yaml"), "")
	writeFile(t, filepath.Join(root, "e", ProfileDir, ProfileFile, "keep"), "")
	writeFile(t, filepath.Join(root, "g", ProfileDir, ProfileFile), "disable: [budget]\n")
	writeFile(t, filepath.Join(root, "g", "h", "app.yaml"), "")
	writeFile(t, filepath.Join(root, "i", ProfileDir, "sessions", "run.jsonl"), "")
	writeFile(t, filepath.Join(root, "i", "app.yaml"), "")
	return root
}

// TestProfileSearchFinds pins what the upward search finds (FindProfiles,
// kitsokiDir), from relative directories too.
func TestProfileSearchFinds(t *testing.T) {
	root := searchTree(t)
	t.Chdir(filepath.Join(root, "a"))
	rootProfile := filepath.Join(root, ProfileDir, ProfileFile)
	cases := []struct{ dir, profile, kitDir string }{
		{"b", rootProfile, filepath.Join(root, "a", ProfileDir)},
		{"../c/d", rootProfile, filepath.Join(root, ProfileDir)},
		{"../e", rootProfile, filepath.Join(root, "e", ProfileDir)},
		{"../g/h", filepath.Join(root, "g", ProfileDir, ProfileFile), filepath.Join(root, "g", ProfileDir)},
		{"../i", rootProfile, filepath.Join(root, ProfileDir)},
	}
	for _, c := range cases {
		if got := FindProfiles(c.dir); len(got) == 0 || got[0] != c.profile {
			t.Errorf("FindProfiles(%s) = %q, want %q first", c.dir, got, c.profile)
		}
		if got := kitsokiDir(c.dir); got != c.kitDir {
			t.Errorf("kitsokiDir(%s) = %q, want %q", c.dir, got, c.kitDir)
		}
	}
}
